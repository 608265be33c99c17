/**
 * A stand-in for an Upstash Redis REST service on loopback: `POST /` with a JSON command
 * array (`["SET", key, value]`, `["GET", key]`) and `Authorization: Bearer <token>`,
 * answering `{"result": …}` or `{"error": …}` as the real service does. It keeps strings
 * in a Map and counts the commands it served.
 */
import { createServer, type Server } from "node:http";

export interface FakeUpstash {
  readonly url: string;
  readonly token: string;
  readonly data: Map<string, string>;
  /** Commands served, such as `["SET", "GET"]`. */
  readonly commands: string[];
  close(): Promise<void>;
}

export async function startFakeUpstash(token = "test-token"): Promise<FakeUpstash> {
  const data = new Map<string, string>();
  const commands: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method !== "POST" || request.headers.authorization !== `Bearer ${token}`) {
        return answer(401, { error: "Unauthorized" });
      }
      let command: unknown;
      try {
        command = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return answer(400, { error: "ERR failed to parse command" });
      }
      if (!Array.isArray(command) || !command.every((part) => typeof part === "string")) {
        return answer(400, { error: "ERR command must be an array of strings" });
      }
      const [name, key, value] = command as string[];
      commands.push(String(name).toUpperCase());
      switch (String(name).toUpperCase()) {
        case "SET":
          if (key === undefined || value === undefined) return answer(400, { error: "ERR wrong number of arguments" });
          data.set(key, value);
          return answer(200, { result: "OK" });
        case "GET":
          if (key === undefined) return answer(400, { error: "ERR wrong number of arguments" });
          return answer(200, { result: data.get(key) ?? null });
        default:
          return answer(400, { error: `ERR unknown command '${name}'` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("fake upstash has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    token,
    data,
    commands,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
