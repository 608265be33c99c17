import { wireSuite } from "./wire.ts";

wireSuite("bun");
