import { mcpSuite } from "./mcp.ts";
import { wireSuite } from "./wire.ts";

wireSuite("bun");
mcpSuite("bun");
