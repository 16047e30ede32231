-- Many learners, each with their own session, for bench/assessment.mjs and bench/practice.mjs
-- (bench/lib/learners.mjs runs it). Arguments after the URL: mode, file, nonce, threads.
--   file: one learner a line, "cookie<TAB>item,item,…"; thread n of the threads takes the lines
--         n, n + threads, … (so no learner is on two threads).
--   answers: POST /api/me/assessment/answers, items "statementId:can|not-yet", each learner's in order;
--   grades:  POST /api/me/practice/reviews, items "wordId:version" (cards due), a fresh UUID client
--            id each (nonce, thread and a counter: unique within and across runs), grades 3 mostly;
--   queue:   GET /api/me/practice/queue, no items.
-- Each request goes to the next learner in turn (round robin over the thread's learners), so that
-- one learner's requests are thousands of requests apart: never two of a learner's at once, and
-- each sent after the one before it was answered. A learner whose items are used up is skipped;
-- when all are, a GET of a path that does not exist is sent and counted as EXHAUSTED (a bench error).
-- At the end: every thread's answers by status ("STATUS 201 1234"), the EXHAUSTED count, and the
-- 95th percentile in wrk's own form ("95%  12.34ms", read by bench/lib/wrk.mjs's parseWrk).

local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("id", thread_count)
  table.insert(threads, thread)
end

function init(args)
  mode = args[1]
  local file = args[2]
  nonce = tonumber(args[3])
  local total_threads = tonumber(args[4])
  learners = {}
  local index = 0
  for line in io.lines(file) do
    if line ~= "" and index % total_threads == id - 1 then
      local cookie, rest = line:match("^([^\t]*)\t?(.*)$")
      local items = {}
      for item in rest:gmatch("[^,]+") do
        table.insert(items, item)
      end
      table.insert(learners, { cookie = cookie, items = items, next = 1 })
    end
    index = index + 1
  end
  at = 0
  sent = 0
  exhausted = 0
  statuses = {}
end

local grade_cycle = { 3, 3, 3, 4, 3, 2, 3, 3, 1, 3 }

local function post(learner, path, body)
  return wrk.format("POST", path, {
    ["Cookie"] = learner.cookie,
    ["Content-Type"] = "application/json",
    ["Origin"] = wrk.scheme .. "://" .. wrk.host .. ":" .. wrk.port,
  }, body)
end

local function with_item(learner, item)
  sent = sent + 1
  if mode == "answers" then
    local statement, answer = item:match("^(%d+):(.+)$")
    return post(learner, "/api/me/assessment/answers",
      string.format('{"statementId":%s,"answer":"%s"}', statement, answer))
  end
  local word, version = item:match("^(%d+):(%d+)$")
  local client_id = string.format("%08x-%04x-4000-8000-%012x", nonce, id, sent)
  return post(learner, "/api/me/practice/reviews",
    string.format('{"clientId":"%s","wordId":%s,"grade":%d,"version":%s}',
      client_id, word, grade_cycle[sent % #grade_cycle + 1], version))
end

function request()
  local n = #learners
  for _ = 1, n do
    at = at % n + 1
    local learner = learners[at]
    if mode == "queue" then
      return wrk.format("GET", "/api/me/practice/queue", { ["Cookie"] = learner.cookie })
    end
    local item = learner.items[learner.next]
    if item then
      learner.next = learner.next + 1
      return with_item(learner, item)
    end
  end
  exhausted = exhausted + 1
  return wrk.format("GET", "/api/bench-learners-exhausted")
end

function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      io.write(string.format("STATUS %d %d\n", status, count))
    end
    io.write(string.format("EXHAUSTED %d\n", thread:get("exhausted")))
  end
  io.write(string.format("  95%%  %.2fms\n", latency:percentile(95) / 1000))
end
