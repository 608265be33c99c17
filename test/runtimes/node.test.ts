import { mcpSuite } from "./mcp.ts";
import { wireSuite } from "./wire.ts";

wireSuite("node");
mcpSuite("node");
