-- bench/live.mjs: GET /api/language-levels with a page no request has asked for lately, so that
-- every request misses the app's read cache (src/server/api/levels/cache.ts keys each read by sort,
-- page, page size and search, and keeps the last 1,000). The pages are past the last level: the app
-- runs the same two statements as for page 1 (the page with its OFFSET, and the count) and answers
-- an empty page. Each thread walks its own range of pages 2..100000 (the largest page allowed).
local threads = 0

function setup(thread)
  thread:set("first", threads * 50000)
  threads = threads + 1
end

function init(args)
  sent = 0
end

function request()
  sent = sent + 1
  local page = 2 + (first + sent) % 99999
  return wrk.format("GET", "/api/language-levels?sort=position&page=" .. page .. "&pageSize=20")
end
