extends RefCounted
## What every benchmark script shares: its watchdog, the statistics of its timings and how it prints them.


## Quits `tree` with code 3 after `seconds` (a script error stops the coroutine without quitting: the watchdog ends
## the run, and `cargo xtask bench` fails it).
static func start_watchdog(tree: SceneTree, seconds: float) -> void:
	tree.create_timer(seconds).timeout.connect(func(): printerr("bench: watchdog"); tree.quit(3))


## The median, 10th, 90th and 99th percentiles, largest and mean of `samples` (left as they are); all 0 when empty.
static func stats(samples: Array) -> Dictionary:
	var s := samples.duplicate()
	s.sort()
	var n := s.size()
	if n == 0:
		return {"median": 0.0, "p10": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0, "mean": 0.0}
	var total := 0.0
	for x in s:
		total += x
	return {"median": s[n / 2], "p10": s[n / 10], "p90": s[(n * 9) / 10], "p99": s[mini((n * 99) / 100, n - 1)],
		"max": s[n - 1], "mean": total / n}


## A stats() result as the tables print a time: "median [p10, p90]".
static func fmt_time(s: Dictionary) -> String:
	return "%.2f [%.2f, %.2f]" % [s["median"], s["p10"], s["p90"]]


## Prints a Markdown table's `header` row ("| a | b |") and the separator row under it.
static func print_table_head(header: String) -> void:
	print(header)
	print("|" + "---|".repeat(header.count("|") - 1))
