/**
 * The Lua scripts of the Redis store (redis.ts): each a step that must happen at once on the
 * server (compare and write, claim and move on), so that no two instances interleave.
 */

/** Compare, write and publish in one step. */
export const RECORD_SCRIPT = `
local cur = redis.call('HMGET', KEYS[1], 'status', 'updatedAt', 'print', 'terminal')
if cur[1] then
  if ARGV[2] ~= '' and cur[2] and cur[2] ~= '' then
    if tonumber(ARGV[2]) < tonumber(cur[2]) then return 0 end
  elseif cur[4] == '1' and cur[1] ~= ARGV[1] then
    return 0
  end
  if cur[3] == ARGV[3] then
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
    return 0
  end
end
local updatedAt = ARGV[2]
if updatedAt == '' and cur[2] then updatedAt = cur[2] end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'updatedAt', updatedAt, 'print', ARGV[3], 'terminal', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
`;

/** Writes the books and ends the claim, unless another caller holds the claim now (ours lapsed). */
export const COMMIT_BOOKS_SCRIPT = `
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if holder then redis.call('DEL', KEYS[2]) end
return 1
`;

/** Tracks an invoice, due at ARGV[2], with its terminal when given. */
export const TRACK_SCRIPT = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
return 1
`;

/** Claims the invoices due by ARGV[1] (at most ARGV[2]), moving each to ARGV[3]; answers ids and terminals. */
export const CLAIM_DUE_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], ARGV[3], id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
end
return out
`;

/** Adds a message unless it is held or was delivered. KEYS: message, delivered, pending; ARGV: id, body, createdAt, dueAt. */
export const OUTBOX_ADD_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'body', ARGV[2], 'createdAt', ARGV[3], 'attempts', '0')
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return 1
`;

/** Claims due messages. KEYS: pending; ARGV: now, count, leased until, message key prefix. */
export const OUTBOX_CLAIM_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], ARGV[3], id)
  local fields = redis.call('HMGET', ARGV[4] .. id, 'body', 'createdAt', 'attempts', 'lastError')
  out[#out + 1] = id
  out[#out + 1] = fields[1] or ''
  out[#out + 1] = fields[2] or '0'
  out[#out + 1] = fields[3] or '0'
  out[#out + 1] = fields[4] or ''
end
return out
`;

/** One attempt's outcome. KEYS: message, delivered, pending, failed; ARGV: id, delivered (1/0), error, next (or ''), now, ttl. */
export const OUTBOX_SETTLE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] == '1' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[6])
  return 1
end
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'lastError', ARGV[3])
if ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
end
return 1
`;

/** Deletes a claim only if it is still ours (it may have lapsed and been claimed again). */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Appends an entry to an invoice's journal (redis-journal.ts). KEYS: entries (a list), the
 * last seq, the order's invoices (a set), the open invoices by deadline (a sorted set); ARGV:
 * invoice id, entry, max entries, ttl, order id (or ''), `open` / `closed` / '', deadline.
 */
export const JOURNAL_APPEND_SCRIPT = `
local seq = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[1], seq .. '|' .. ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if ARGV[5] ~= '' then
  redis.call('SADD', KEYS[3], ARGV[1])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
if ARGV[6] == 'open' then
  redis.call('ZADD', KEYS[4], ARGV[7], ARGV[1])
elseif ARGV[6] == 'closed' then
  redis.call('ZREM', KEYS[4], ARGV[1])
end
return seq
`;

/** The newest entries of a journal and its last seq. KEYS: entries, the last seq; ARGV: how many. */
export const JOURNAL_READ_SCRIPT = `
local n = tonumber(ARGV[1])
local out = { redis.call('GET', KEYS[2]) or '0' }
if n > 0 then
  local items = redis.call('LRANGE', KEYS[1], -n, -1)
  for i = #items, 1, -1 do out[#out + 1] = items[i] end
end
return out
`;

/** Open invoices past their deadline; forgets those past it by more than ttl. KEYS: the sorted set; ARGV: now, limit, ttl. */
export const JOURNAL_OVERDUE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
`;
