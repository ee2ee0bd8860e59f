extends SceneTree
## Long runs of the seeded scene fuzzer (tests/lib/scene_fuzzer.gd), without the test runner's watchdog:
##
##     cargo xtask build && cargo xtask godot -- --headless --path tests -s res://soak/scene_fuzz.gd -- --seeds 1-20 --frames 20000
##
## Prints one `SCENE FUZZ` line per seed and every failure; exits 1 when any invariant broke, when the extension is
## not loaded, or when a seed never had a Reach2D node alive (a run that tested nothing fails). A seed that fails goes
## into REGRESSION_SEEDS in tests/robustness/test_scene_fuzz.gd, so CI keeps it.

const Fuzzer := preload("res://lib/scene_fuzzer.gd")
const TestSceneFuzz := preload("res://robustness/test_scene_fuzz.gd")
const Nodes := preload("res://lib/node_classes.gd")


func _initialize() -> void:
	var seeds := [1]
	var frames := 5000
	var args := OS.get_cmdline_user_args()
	for i in args.size() - 1:
		if args[i] == "--seeds":
			seeds = TestSceneFuzz.parse_seeds(args[i + 1])
		elif args[i] == "--frames":
			frames = int(args[i + 1])
	_run(seeds, frames)


func _run(seeds: Array, frames: int) -> void:
	await process_frame
	for klass in Nodes.ALL:
		if not ClassDB.class_exists(klass):
			print("SCENE FUZZ FAIL: %s is not a class: the Reach2D extension is not loaded (run it with `cargo xtask godot`, which lists the extension, after `cargo xtask build`)" % klass)
			quit(1)
			return
	var failed := 0
	var total := {"frames": 0, "ops": 0, "quiet_checks": 0, "bones_checked": 0}
	var started := Time.get_ticks_msec()
	for seed in seeds:
		var fuzzer: Node = Fuzzer.new()
		root.add_child(fuzzer)
		var found: PackedStringArray = await fuzzer.run(seed, frames)
		print("SCENE FUZZ seed %d: %s, %d failures" % [seed, fuzzer.stats, found.size()])
		if fuzzer.stats["max_nodes"] == 0:
			found.append("seed %d: no Reach2D node was ever alive, so nothing was tested" % seed)
		for f in found:
			print("SCENE FUZZ FAIL %s" % f)
		for key in total:
			total[key] += fuzzer.stats[key]
		failed += mini(found.size(), 1)
		fuzzer.free()
	print("SCENE FUZZ %d seeds x %d frames in %.0f s: %s; %d seeds failed" % [seeds.size(), frames, (Time.get_ticks_msec() - started) / 1000.0, total, failed])
	quit(1 if failed > 0 else 0)
