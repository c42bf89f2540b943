-- wrk script: POST one send request per call and count 2xx / other answers across all threads.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["x-api-key"] = os.getenv("TXMAIL_BENCH_KEY") or ""
wrk.body = '{"from":"Acme <noreply@acme.example>","to":"Jane <jane@recipient.example>","subject":"Your sign-in code is 123456","message":"<p>Your code is <b>123456</b>. It expires in 10 minutes.</p><p>If you did not ask for it, ignore this email.</p>"}'

local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) ok = 0; other = 0 end
function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else other = other + 1 end
end
function done(summary, latency, requests)
  local o, b = 0, 0
  for _, t in ipairs(threads) do o = o + t:get("ok"); b = b + t:get("other") end
  io.write(string.format("RESULT ok=%d other=%d errors=%d rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
    o, b, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
