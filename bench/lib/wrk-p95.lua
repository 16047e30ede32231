-- wrk prints the 50th, 75th, 90th and 99th percentiles with --latency; this adds the 95th, in the
-- same form ("95%  12.34ms"), so bench/lib/wrk.mjs's parseWrk reads it as `p95`.
done = function(summary, latency, requests)
  io.write(string.format("  95%%  %.2fms\n", latency:percentile(95) / 1000))
end
