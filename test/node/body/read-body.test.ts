/**
 * The body reader on Node's own web `Request` (undici), whose bodies are byte streams without
 * workerd's `readAtLeast`: the standard BYOB path Deno takes too. (On Node the address reads
 * the message instead; test/node/body/node-message.test.ts.)
 */
import { byteStreamSuite } from "../../byte-stream-bodies.ts";

byteStreamSuite("node", { readAtLeast: false });
