/** The subset of fengari (a Lua 5.3 VM in JavaScript) that the fake Upstash uses; it ships no types. */
declare module "fengari" {
  type State = object;
  const fengari: {
    to_luastring(text: string): Uint8Array;
    lua: {
      LUA_TNIL: number;
      LUA_TBOOLEAN: number;
      LUA_TNUMBER: number;
      LUA_TSTRING: number;
      LUA_TTABLE: number;
      lua_pushjsfunction(L: State, fn: (L: State) => number): void;
      lua_setglobal(L: State, name: Uint8Array): void;
      lua_setfield(L: State, index: number, name: Uint8Array): void;
      lua_gettop(L: State): number;
      lua_settop(L: State, index: number): void;
      lua_type(L: State, index: number): number;
      lua_tojsstring(L: State, index: number): string;
      lua_tonumber(L: State, index: number): number;
      lua_toboolean(L: State, index: number): boolean;
      lua_pushinteger(L: State, value: number): void;
      lua_pushnumber(L: State, value: number): void;
      lua_pushstring(L: State, value: Uint8Array): void;
      lua_pushboolean(L: State, value: boolean): void;
      lua_pushnil(L: State): void;
      lua_createtable(L: State, narr: number, nrec: number): void;
      lua_rawseti(L: State, index: number, n: number): void;
      lua_rawgeti(L: State, index: number, n: number): number;
      lua_pcall(L: State, nargs: number, nresults: number, handler: number): number;
      lua_error(L: State): never;
    };
    lauxlib: {
      luaL_newstate(): State;
      luaL_loadstring(L: State, code: Uint8Array): number;
    };
    lualib: { luaL_openlibs(L: State): void };
  };
  export default fengari;
}
