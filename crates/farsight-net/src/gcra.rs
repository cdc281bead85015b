//! The shared rate budget: GCRA (the generic cell rate algorithm, the one
//! `governor` runs in memory) as a Lua script, so that the read, the
//! decision and the write happen atomically in Redis for every instance.
//!
//! State: one key holding the theoretical arrival time (TAT) in microseconds
//! of Redis' clock (`TIME`), expiring once it is in the past. A request at
//! `now` is allowed when `max(TAT, now) + period - period * burst <= now`;
//! then TAT moves on by one period. Otherwise the script answers how long to
//! wait, in microseconds (0 means allowed).

use std::sync::OnceLock;

const SOURCE: &str = r"
-- Redis < 5 replicates scripts verbatim, which TIME forbids; later versions
-- replicate effects and have dropped or no-op'd this call.
if redis.replicate_commands then pcall(redis.replicate_commands) end
local period = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local new_tat = tat + period
local allow_at = new_tat - period * burst
if allow_at > now then
  return math.ceil(allow_at - now)
end
redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
return 0
";

/// The script, hashed once; `EVALSHA` first, `SCRIPT LOAD` on `NOSCRIPT`
/// (a restarted or flushed Redis), which `redis::Script` does.
pub(crate) fn script() -> &'static redis::Script {
    static SCRIPT: OnceLock<redis::Script> = OnceLock::new();
    SCRIPT.get_or_init(|| redis::Script::new(SOURCE))
}
