import { wireSuite } from "./wire.ts";

wireSuite("workerd");
