/**
 * A stand-in for an Upstash Redis REST service on loopback: `POST /` with a JSON command
 * array (`["SET", key, value]`, `["GET", key]`; numbers stand for their decimal text) and
 * `Authorization: Bearer <token>`, answering `{"result": …}` or `{"error": …}` (HTTP 400) as
 * the real service does, with every string of a result base64-encoded when the request says
 * `Upstash-Encoding: base64` (as `@upstash/redis` does).
 *
 * Commands: `GET`, `SET` (with `PX` or `EX`), `INCRBY`, `PEXPIRE`, `PTTL`, and Lua scripts as Redis runs them:
 * `EVAL script numkeys key… arg…` runs the script in a real Lua 5.3 VM (fengari) with `KEYS`,
 * `ARGV` and `redis.call` for the commands above, converting results as Redis does (number →
 * integer, table → array, `false`/nil → null), and caches it by SHA-1; `EVALSHA` runs a
 * cached script or fails with `NOSCRIPT`. Keys expire (`PEXPIRE`). It counts the commands it
 * served.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import fengari from "fengari";

const { lua, lauxlib, lualib, to_luastring } = fengari;

export interface FakeUpstash {
  readonly url: string;
  readonly token: string;
  readonly data: Map<string, string>;
  /** Commands served, such as `["SET", "GET"]`. */
  readonly commands: string[];
  close(): Promise<void>;
}

/** A Redis reply: integer, bulk string, array, or nil. */
type Reply = number | string | null | Reply[];

class CommandError extends Error {}

export async function startFakeUpstash(token = "test-token"): Promise<FakeUpstash> {
  const data = new Map<string, string>();
  /** When each key with a time to live expires, in ms since the epoch. */
  const expiries = new Map<string, number>();
  const scripts = new Map<string, string>();
  const commands: string[] = [];

  const live = (key: string): string | undefined => {
    const expiry = expiries.get(key);
    if (expiry !== undefined && expiry <= Date.now()) {
      data.delete(key);
      expiries.delete(key);
    }
    return data.get(key);
  };
  const arity = (args: string[], count: number) => {
    if (args.length !== count) throw new CommandError("ERR wrong number of arguments");
  };
  const integer = (text: string | undefined): number => {
    if (text === undefined || !/^-?\d+$/.test(text))
      throw new CommandError("ERR value is not an integer or out of range");
    return Number(text);
  };

  /** Runs one command (from the REST body or from `redis.call`). */
  const run = (name: string, args: string[]): Reply => {
    switch (name) {
      case "GET":
        arity(args, 1);
        return live(args[0]!) ?? null;
      case "SET": {
        if (args.length !== 2 && args.length !== 4) throw new CommandError("ERR syntax error");
        const unit = args[2]?.toUpperCase();
        if (args.length === 4 && unit !== "PX" && unit !== "EX") throw new CommandError("ERR syntax error");
        data.set(args[0]!, args[1]!);
        if (args.length === 4) expiries.set(args[0]!, Date.now() + integer(args[3]) * (unit === "EX" ? 1000 : 1));
        else expiries.delete(args[0]!);
        return "OK";
      }
      case "INCRBY": {
        arity(args, 2);
        const value = integer(live(args[0]!) ?? "0") + integer(args[1]);
        data.set(args[0]!, String(value));
        return value;
      }
      case "PEXPIRE":
        arity(args, 2);
        if (live(args[0]!) === undefined) return 0;
        expiries.set(args[0]!, Date.now() + integer(args[1]));
        return 1;
      case "PTTL": {
        arity(args, 1);
        if (live(args[0]!) === undefined) return -2;
        const expiry = expiries.get(args[0]!);
        return expiry === undefined ? -1 : expiry - Date.now();
      }
      case "EVAL": {
        const [script, ...rest] = args;
        if (script === undefined) throw new CommandError("ERR wrong number of arguments");
        scripts.set(createHash("sha1").update(script).digest("hex"), script);
        return evaluate(script, rest);
      }
      case "EVALSHA": {
        const [sha, ...rest] = args;
        const script = scripts.get((sha ?? "").toLowerCase());
        if (script === undefined) throw new CommandError("NOSCRIPT No matching script. Please use EVAL.");
        return evaluate(script, rest);
      }
      default:
        throw new CommandError(`ERR unknown command '${name}'`);
    }
  };

  /** Runs a Lua script as Redis does: `numkeys key… arg…` become `KEYS` and `ARGV`. */
  const evaluate = (script: string, args: string[]): Reply => {
    const count = integer(args[0]);
    if (count < 0 || count > args.length - 1)
      throw new CommandError("ERR Number of keys can't be greater than number of args");
    const L = lauxlib.luaL_newstate();
    lualib.luaL_openlibs(L);
    const pushArray = (items: string[]) => {
      lua.lua_createtable(L, items.length, 0);
      items.forEach((item, i) => {
        lua.lua_pushstring(L, to_luastring(item));
        lua.lua_rawseti(L, -2, i + 1);
      });
    };
    pushArray(args.slice(1, 1 + count));
    lua.lua_setglobal(L, to_luastring("KEYS"));
    pushArray(args.slice(1 + count));
    lua.lua_setglobal(L, to_luastring("ARGV"));
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushjsfunction(L, (state) => {
      const parts: string[] = [];
      for (let i = 1; i <= lua.lua_gettop(state); i++) parts.push(lua.lua_tojsstring(state, i));
      let reply: Reply;
      try {
        reply = run(String(parts[0]).toUpperCase(), parts.slice(1));
      } catch (error) {
        lua.lua_pushstring(state, to_luastring(error instanceof Error ? error.message : String(error)));
        return lua.lua_error(state);
      }
      pushReply(state, reply);
      return 1;
    });
    lua.lua_setfield(L, -2, to_luastring("call"));
    lua.lua_setglobal(L, to_luastring("redis"));
    // Redis reads a first line `#!lua flags=…` itself; Lua would not parse it.
    const body = script.startsWith("#!") ? script.slice(script.indexOf("\n") + 1) : script;
    if (lauxlib.luaL_loadstring(L, to_luastring(body)) !== 0 || lua.lua_pcall(L, 0, 1, 0) !== 0) {
      throw new CommandError(`ERR Error running script: ${lua.lua_tojsstring(L, -1)}`);
    }
    return toReply(L, -1);
  };

  /** Redis's Redis-to-Lua conversion: integer → number, bulk → string, array → table, nil → false. */
  const pushReply = (L: object, reply: Reply) => {
    if (reply === null) lua.lua_pushboolean(L, false);
    // fengari's integers are 32-bit; Redis's Lua (5.1) has only doubles: a larger one (a PTTL
    // of days) is a float, as it is there.
    else if (typeof reply === "number" && Math.abs(reply) < 2 ** 31) lua.lua_pushinteger(L, reply);
    else if (typeof reply === "number") lua.lua_pushnumber(L, reply);
    else if (typeof reply === "string") lua.lua_pushstring(L, to_luastring(reply));
    else {
      lua.lua_createtable(L, reply.length, 0);
      reply.forEach((item, i) => {
        pushReply(L, item);
        lua.lua_rawseti(L, -2, i + 1);
      });
    }
  };

  /** Redis's Lua-to-Redis conversion: number → integer (truncated), table → array up to the first nil, false → nil, true → 1. */
  const toReply = (L: object, relative: number): Reply => {
    const index = relative < 0 ? lua.lua_gettop(L) + relative + 1 : relative;
    switch (lua.lua_type(L, index)) {
      case lua.LUA_TNUMBER:
        return Math.trunc(lua.lua_tonumber(L, index));
      case lua.LUA_TSTRING:
        return lua.lua_tojsstring(L, index);
      case lua.LUA_TBOOLEAN:
        return lua.lua_toboolean(L, index) ? 1 : null;
      case lua.LUA_TTABLE: {
        const items: Reply[] = [];
        for (let i = 1; lua.lua_rawgeti(L, index, i) !== lua.LUA_TNIL; i++) {
          items.push(toReply(L, -1));
          lua.lua_settop(L, -2);
        }
        lua.lua_settop(L, -2);
        return items;
      }
      default:
        return null;
    }
  };

  const base64 = (reply: Reply): Reply =>
    typeof reply === "string"
      ? Buffer.from(reply, "utf8").toString("base64")
      : Array.isArray(reply)
        ? reply.map(base64)
        : reply;

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
      // The real service also has /pipeline and /multi-exec; nothing here sends to them.
      if (request.url !== "/") return answer(404, { error: `ERR ${request.url} is not served by this fake` });
      let command: unknown;
      try {
        command = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return answer(400, { error: "ERR failed to parse command" });
      }
      if (
        !Array.isArray(command) ||
        command.length === 0 ||
        !command.every((part) => typeof part === "string" || typeof part === "number")
      ) {
        return answer(400, { error: "ERR command must be an array of strings" });
      }
      const [name, ...args] = (command as (string | number)[]).map(String);
      commands.push(name!.toUpperCase());
      try {
        const result = run(name!.toUpperCase(), args);
        return answer(200, { result: request.headers["upstash-encoding"] === "base64" ? base64(result) : result });
      } catch (error) {
        if (!(error instanceof CommandError)) throw error;
        return answer(400, { error: error.message });
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
