import { wireSuite } from "./wire.ts";

wireSuite("deno");
