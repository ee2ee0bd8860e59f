extends SceneTree
## Soak: many rigs solving every frame for a long time, headless. Memory (Godot's static memory, the process's
## resident set, and in the debug build the extension's own heap allocations) is sampled after a warm-up and at the
## end; it must not grow. Every bone is checked for NaN, and no error may be printed. Not part of `cargo xtask test`
## (it runs for tens of minutes); run it with
##
##     cargo xtask build && cargo xtask godot -- --headless --path tests -s res://soak/soak.gd [-- --chains 1000 --frames 100000 --warmup 600]
##
## and read the `SOAK` lines (figures in tests/README.md). Exits 0 when every check held, 1 otherwise: also when the
## extension is not loaded or a rig was not built or could not solve (a run that tested nothing fails).
const ErrorLog := preload("res://lib/error_log.gd")

const Rig := preload("res://lib/rig.gd")
const Nodes := preload("res://lib/node_classes.gd")
const TestCase := preload("res://lib/test_case.gd")
## Largest growth accepted between the warm-up sample and the end: allocator noise, not a leak (a leak of even
## 8 bytes per chain per 1000 frames would be 800 KB here).
const MAX_STATIC_GROWTH := 64 * 1024
const MAX_RSS_GROWTH_KB := 4096

var chains := 1000
var frames := 100000
## Frames before the first memory sample (buffers sized, caches warm).
var warmup := 600
var rigs: Array = []
var errors := 0
var logger: ErrorLog


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	for i in args.size() - 1:
		if args[i] == "--chains":
			chains = int(args[i + 1])
		elif args[i] == "--frames":
			frames = int(args[i + 1])
		elif args[i] == "--warmup":
			warmup = int(args[i + 1])
	logger = ErrorLog.new()
	OS.add_logger(logger)
	_run()


func rss_kb() -> int:
	var out := []
	OS.execute("ps", ["-o", "rss=", "-p", str(OS.get_process_id())], out)
	return int(out[0].strip_edges()) if out.size() > 0 else -1


func rust_allocations() -> int:
	if ClassDB.class_exists("Reach2DDebug"):
		return ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	return -1


func sample(label: String, frame: int) -> Dictionary:
	var s := {"frame": frame, "static": OS.get_static_memory_usage(), "rss_kb": rss_kb(), "rust_allocations": rust_allocations(), "objects": Performance.get_monitor(Performance.OBJECT_COUNT)}
	print("SOAK %s frame %d: static %d B, rss %d KB, heap allocations in the nodes %d, objects %d" % [label, frame, s["static"], s["rss_kb"], s["rust_allocations"], s["objects"]])
	return s


## One rig per chain: 2 to 6 bones, bone_angle != 0, a quarter of them mirrored (scale.x = -1), a moving target.
func build() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 42
	for i in chains:
		var klass: String = Nodes.ALL[i % Nodes.ALL.size()]
		var skeleton := Skeleton2D.new()
		skeleton.position = Vector2((i % 40) * 50.0, (i / 40) * 50.0)
		if i % 4 == 1:
			skeleton.scale = Vector2(-1, 1)
		root.add_child(skeleton)
		var n := 2 if klass == "TwoBoneIk2D" else rng.randi_range(2, 6)
		var parent: Node = skeleton
		var bones := []
		for b in n:
			var bone := Rig.bone(parent, "bone_%d" % b, Vector2.ZERO if b == 0 else Vector2(12, 0), 12.0, 0.1, rng.randf_range(-0.5, 0.5))
			parent = bone
			bones.append(bone)
		var target := Node2D.new()
		root.add_child(target)
		var ik: Node2D = ClassDB.instantiate(klass)
		Nodes.attach(ik, bones, target, 0, n - 1)
		if not Nodes.single_bone(klass):
			ik.set_angle_limits(0, -2.0, 2.0)
		root.add_child(ik)
		rigs.append({"skeleton": skeleton, "bones": bones, "target": target, "ik": ik, "phase": rng.randf() * TAU, "reach": n * 12.0})


## Targets circle their rigs (in and out of reach); the root bones get an "animation" offset as a game would.
func animate(frame: int) -> void:
	var t := frame * 0.016
	for rig in rigs:
		var phase: float = rig["phase"]
		var center: Vector2 = rig["skeleton"].global_position
		var radius: float = rig["reach"] * (0.4 + 0.8 * (0.5 + 0.5 * sin(t * 0.7 + phase)))
		rig["target"].global_position = center + Vector2.from_angle(t + phase) * radius
		rig["bones"][0].rotation += 0.01 * sin(t * 3.0 + phase)


## `true` when no bone of any rig holds a NaN or infinite rotation or position.
func all_finite() -> bool:
	for rig in rigs:
		if not TestCase.all_finite(rig["bones"]):
			return false
	return true


func _run() -> void:
	for klass in Nodes.ALL:
		if not ClassDB.class_exists(klass):
			print("SOAK FAIL: %s is not a class: the Reach2D extension is not loaded (run it with `cargo xtask godot`, which lists the extension, after `cargo xtask build`)" % klass)
			quit(1)
			return
	print("SOAK %d chains x %d frames (Godot %s, %s build of the extension)" % [chains, frames, Engine.get_version_info()["string"], "debug" if ClassDB.class_exists("Reach2DDebug") else "release"])
	build()
	if rigs.size() != chains or chains <= 0:
		print("SOAK FAIL: %d of %d rigs were built" % [rigs.size(), chains])
		quit(1)
		return
	var started := Time.get_ticks_msec()
	var before := {}
	var ok := true
	for frame in frames:
		animate(frame)
		await process_frame
		if frame == warmup:
			before = sample("start", frame)
		elif frame > warmup and frame % 10000 == 0:
			sample("at", frame)
			if not all_finite():
				print("SOAK FAIL: a bone holds NaN at frame %d" % frame)
				ok = false
				break
	var after := sample("end", frames)
	var seconds := (Time.get_ticks_msec() - started) / 1000.0
	print("SOAK %d frames in %.0f s (%.2f ms per frame for %d chains)" % [frames, seconds, 1000.0 * seconds / frames, chains])
	if not before.is_empty():
		var static_growth: int = after["static"] - before["static"]
		var rss_growth: int = after["rss_kb"] - before["rss_kb"]
		print("SOAK growth: static %d B, rss %d KB, heap allocations in the nodes %d, objects %d" % [static_growth, rss_growth, after["rust_allocations"] - before["rust_allocations"], after["objects"] - before["objects"]])
		if static_growth > MAX_STATIC_GROWTH or rss_growth > MAX_RSS_GROWTH_KB:
			print("SOAK FAIL: memory grew")
			ok = false
		if before["rust_allocations"] >= 0 and after["rust_allocations"] != before["rust_allocations"]:
			print("SOAK FAIL: the extension allocated in steady state")
			ok = false
	if not all_finite():
		print("SOAK FAIL: a bone holds NaN")
		ok = false
	var unsolved := 0
	for rig in rigs:
		unsolved += 0 if rig["ik"].get_setup_warning() == "" and rig["ik"].last_iterations >= 0 and is_finite(rig["ik"].last_error) else 1
	if unsolved > 0:
		print("SOAK FAIL: %d of %d nodes could not solve" % [unsolved, rigs.size()])
		ok = false
	if logger.count() > 0:
		print("SOAK FAIL: %d errors printed, first: %s" % [logger.count(), logger.first()])
		ok = false
	print("SOAK %s" % ("PASS" if ok else "FAIL"))
	OS.remove_logger(logger)
	quit(0 if ok else 1)
