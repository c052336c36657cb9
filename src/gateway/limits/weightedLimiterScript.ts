/**
 * The gateway's limiter engine as one Lua script, atomic on the Redis server: the same policies
 * and arithmetic as the memory engine (`createWeightedLimiter.ts`), so every instance sharing one
 * Redis counts one set of windows. Every key is given (two per charge: the policy's and its
 * companion), so the script declares what it touches.
 *
 * KEYS: per charge i, `KEYS[2i-1]` the policy's state and `KEYS[2i]` its companion hash.
 * ARGV: `mode` (`consume`, `peek` or `seed`), the clock (`''`: Redis's own `TIME`, so instances
 * with skewed clocks count the same windows; a number of ms: tests), the request's lease id, the
 * lease TTL in ms, then four per charge: kind, cost, and two parameters:
 * - `burst`: perSecond. State: the GCRA's theoretical arrival time, `%.17g` (no precision lost).
 * - `window`: limit, windowMs. State: a sorted set of `time:seq:cost` members scored by time; the
 *   companion hash holds the running `sum` and the `seq` counter (a prune subtracts what leaves).
 * - `calendar`: limit, `day` | `month`. State: a hash {p = UTC period id, u = units used}.
 * - `concurrency`: limit. State: a sorted set of lease ids scored by when they expire (a killed
 *   instance's leases leave at their TTL; a live request renews its own).
 * In `seed` mode the cost of a calendar charge is the usage to seed, taken only when the key
 * holds no count for the current period (Redis's count, when it has one, is the exact one).
 * - `usage` (not a limit; at most one, last): cost = the request's units, a = the API key's
 *   prefix. State: a hash per key prefix, fields `<hour>:u` (units admitted), `<hour>:n`
 *   (requests admitted), `<hour>:x` (refused), the hour as whole hours since 1970 on the script's
 *   clock; the companion is the set of prefixes with counts (`usageSummaryCopier` copies them
 *   into the database). Counted in `consume` mode whatever the decision, in the same atomic step.
 *
 * Returns {allowed, retryAfterMs, then per charge: fits, retryAfterMs, limit, remaining,
 * resetSec, windowSec}: integers only (Redis truncates Lua numbers).
 */
export const WEIGHTED_LIMITER_SCRIPT = `
local DAY = 86400000
-- Usage counts not copied to the database within a week are dropped (the copier runs every few seconds).
local USAGE_TTL = 7 * DAY
local mode = ARGV[1]
local now
if ARGV[2] ~= '' then now = tonumber(ARGV[2]) else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local lease = ARGV[3]
local leaseTtl = tonumber(ARGV[4])
local n = (#ARGV - 4) / 4

-- Days since 1970-01-01 to the civil year and month (H. Hinnant's algorithm), and back.
local function civil(days)
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return y, m
end
local function daysFromCivil(y, m)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local mp = m > 2 and m - 3 or m + 9
  local doy = math.floor((153 * mp + 2) / 5)
  return era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
end
-- The period's id, start and end (ms).
local function period(kind)
  local day = math.floor(now / DAY)
  if kind == 'day' then return day, day * DAY, (day + 1) * DAY end
  local y, m = civil(day)
  local start = daysFromCivil(y, m) * DAY
  local ny, nm = y, m + 1
  if nm == 13 then ny, nm = y + 1, 1 end
  return y * 12 + m - 1, start, daysFromCivil(ny, nm) * DAY
end
local function ceilDiv(ms) return math.ceil(ms / 1000) end

local out = {1, 0}
local plans = {}
for i = 1, n do
  local key, aux = KEYS[2 * i - 1], KEYS[2 * i]
  local kind, cost = ARGV[4 * i + 1], tonumber(ARGV[4 * i + 2])
  local a, b = ARGV[4 * i + 3], ARGV[4 * i + 4]
  local fits, retry, limit, remaining, reset, window = true, 0, 0, 0, 0, 0
  local take, tally
  if kind == 'burst' then
    local perSecond = tonumber(a)
    local interval = 1000 / perSecond
    local start = math.max(tonumber(redis.call('GET', key) or now), now)
    local nextTat = start + cost * interval
    local over = nextTat - now - 1000
    fits = over <= 1e-9
    retry = math.max(0, over)
    limit, window = perSecond, 1
    local function state(tat)
      remaining = math.max(0, math.floor((1000 - (tat - now)) / interval + 1e-9))
      reset = ceilDiv(tat - now)
    end
    state(start)
    take = function()
      redis.call('SET', key, string.format('%.17g', nextTat), 'PX', math.max(1, math.ceil(nextTat - now)))
      state(nextTat)
    end
  elseif kind == 'window' then
    limit = tonumber(a)
    local windowMs = tonumber(b)
    local sum = tonumber(redis.call('HGET', aux, 'sum') or '0')
    local old = redis.call('ZRANGEBYSCORE', key, '-inf', now - windowMs)
    if #old > 0 then
      for _, m in ipairs(old) do sum = sum - tonumber(string.match(m, ':(%d+)$')) end
      redis.call('ZREMRANGEBYSCORE', key, '-inf', now - windowMs)
      redis.call('HSET', aux, 'sum', sum)
    end
    fits = sum + cost <= limit
    if not fits then
      if cost > limit then retry = windowMs else
        -- The oldest charges must leave until this one fits.
        local needed, freed = sum + cost - limit, 0
        local all = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
        for j = 1, #all, 2 do
          freed = freed + tonumber(string.match(all[j], ':(%d+)$'))
          if freed >= needed then retry = tonumber(all[j + 1]) + windowMs - now break end
        end
      end
    end
    window = windowMs / 1000
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
    remaining = math.max(0, limit - sum)
    if oldest then reset = ceilDiv(tonumber(oldest) + windowMs - now) end
    take = function()
      local seq = redis.call('HINCRBY', aux, 'seq', 1)
      redis.call('ZADD', key, now, now .. ':' .. seq .. ':' .. cost)
      redis.call('HSET', aux, 'sum', sum + cost)
      redis.call('PEXPIRE', key, windowMs)
      redis.call('PEXPIRE', aux, windowMs)
      remaining = math.max(0, limit - sum - cost)
      if not oldest then reset = ceilDiv(windowMs) end
    end
  elseif kind == 'calendar' then
    limit = tonumber(a)
    local id, start, finish = period(b)
    local stored = redis.call('HMGET', key, 'p', 'u')
    local used = 0
    if tonumber(stored[1]) == id then used = tonumber(stored[2]) end
    if mode == 'seed' then
      if tonumber(stored[1]) ~= id then
        redis.call('HSET', key, 'p', id, 'u', cost)
        redis.call('PEXPIRE', key, finish - now + DAY)
      end
      cost = 0
    end
    fits = used + cost <= limit
    if not fits then retry = finish - now end
    remaining = math.max(0, limit - used)
    reset = ceilDiv(finish - now)
    window = math.floor((finish - start) / 1000 + 0.5)
    take = function()
      if tonumber(stored[1]) == id then redis.call('HINCRBY', key, 'u', cost)
      else redis.call('HSET', key, 'p', id, 'u', cost) end
      redis.call('PEXPIRE', key, finish - now + DAY)
      remaining = math.max(0, limit - used - cost)
    end
  elseif kind == 'concurrency' then
    limit = tonumber(a)
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    local count = redis.call('ZCARD', key)
    fits = count + 1 <= limit
    -- A lease ends with its response: no time is known; one second is the client's next look.
    if not fits then retry = 1000 end
    remaining = math.max(0, limit - count)
    take = function()
      redis.call('ZADD', key, now + leaseTtl, lease)
      redis.call('PEXPIRE', key, leaseTtl * 2)
      remaining = math.max(0, limit - count - 1)
    end
  elseif kind == 'usage' then
    local hour = math.floor(now / 3600000)
    tally = function(admitted)
      if admitted then
        redis.call('HINCRBY', key, hour .. ':u', cost)
        redis.call('HINCRBY', key, hour .. ':n', 1)
      else
        redis.call('HINCRBY', key, hour .. ':x', 1)
      end
      redis.call('PEXPIRE', key, USAGE_TTL)
      redis.call('SADD', aux, a)
    end
  else
    return redis.error_reply('unknown policy kind ' .. tostring(kind))
  end
  if not fits then
    out[1] = 0
    out[2] = math.max(out[2], math.ceil(retry))
  end
  plans[i] = {take = take, tally = tally, row = function() return {fits and 1 or 0, math.ceil(retry), limit, remaining, reset, window} end}
end
if mode == 'consume' then
  for i = 1, n do
    if out[1] == 1 and plans[i].take then plans[i].take() end
    if plans[i].tally then plans[i].tally(out[1] == 1) end
  end
end
for i = 1, n do
  for _, v in ipairs(plans[i].row()) do out[#out + 1] = v end
end
return out
`

/**
 * Ends (`release`) or extends (`renew`, to ARGV[3] ms from now) one request's leases: KEYS are
 * the concurrency policies' sorted sets, ARGV[2] the lease id, ARGV[4] the clock as in the
 * limiter's script. Renewal only touches a lease still held (`XX`), so a lease already expired
 * and swept is not brought back.
 */
export const LEASE_SCRIPT = `
local now
if ARGV[4] ~= '' then now = tonumber(ARGV[4]) else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
for _, key in ipairs(KEYS) do
  if ARGV[1] == 'release' then redis.call('ZREM', key, ARGV[2])
  else redis.call('ZADD', key, 'XX', now + tonumber(ARGV[3]), ARGV[2]) end
end
return 1
`
