import { wireSuite } from "./wire.ts";

wireSuite("vercel");
