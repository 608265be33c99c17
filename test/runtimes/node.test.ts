import { wireSuite } from "./wire.ts";

wireSuite("node");
