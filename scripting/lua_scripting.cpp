// Lua scripting of drives and forces (later issue): the Lua 5.4 state wrapper lives here.
#include <lua.hpp>

namespace mbl::scripting {

/// Version string of the embedded Lua, shown by --version.
const char* lua_version() { return LUA_RELEASE; }

}  // namespace mbl::scripting
