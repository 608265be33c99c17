import { mcpSuite } from "./mcp.ts";
import { wireSuite } from "./wire.ts";

wireSuite("deno");
mcpSuite("deno");
