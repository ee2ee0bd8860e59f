extends SceneTree
## The realistic workload (issue #10): K chains whose targets move about 2 px per frame on circles, every solve
## warm-started from the last frame's pose, the built-in solvers' own settings (FABRIK: tolerance 0.01 px, at most
## 10 iterations; CCD: one sweep). Rigs as users have them: some bones with a bone angle, half the skeletons mirrored
## with scale.x = -1. In one process, taking turns in blocks, four methods each solve their own copy of the K rigs:
##   reach2d   the Reach2D node's solve() (UPDATE_MANUAL), from a GDScript loop;
##   batch     the same nodes solved by one Reach2D.solve_all() call (the batch path, issue 22);
##   builtin   Skeleton2D.execute_modifications() with one SkeletonModification2D in the stack;
##   gdscript  a FABRIK / CCD / two-bone solver written in GDScript (what a user could write instead);
##   floor     Reach2DIoFloor.run(): reads what a solve reads and writes each rotation back, no solving, with the
##             nodes' checks per node (each run its own pass of the tree watch: the full check every time);
##   floor_pass the same floors run as one pass (Reach2DIoFloorPass.run(): cached handles, the checks once per
##             frame, as the batch runs its nodes: a verified setup skips its structural checks).
## Then the engine-driven frame time: K characters in UPDATE_PROCESS against the built-in stacks running by
## themselves (Performance.TIME_PROCESS per frame). Needs the release build with the `bench` feature:
## `cargo xtask bench` (all of it) or `cargo xtask bench --quick` (a few chains: proves it runs).

const Rig := preload("res://lib/rig.gd")
const BuiltinIk := preload("res://bench/builtin_ik.gd")
const Timing := preload("res://bench/timing.gd")
const LENGTH := 24.0
## Bone angle of every third bone (the child sits at the end of the bone, along it).
const BONE_ANGLE := 0.25
const STEP_PX := 2.0
const ALL_METHODS := ["reach2d", "batch", "builtin", "gdscript", "floor", "floor_pass"]
## The methods of the table without read-back between frames.
const NO_READBACK_METHODS := ["reach2d", "batch", "builtin", "floor", "floor_pass"]

var quick := false
## Chains per set (K); `-- --k=NUM` overrides it.
var big := 1000
## The methods compared; `-- --methods=reach2d,floor` picks some (for profiling one of them).
var methods := ALL_METHODS
## `-- --case=fabrik:8` runs only that row of the first table and skips the other tables (for profiling);
## `--case=floor`, `--case=no_readback` and `--case=frames` run only that table.
var only_case := ""
var blocks := 15
var frames_per_block := 4
## Read every chain's tip back between frames (clean global transforms before the next writes, as after a rendered
## frame); `false` for the table without read-back.
var readback := true
## `-- --phases`: also time each phase of the Reach2D solves (the per-phase timer of bench builds, on only in the
## counted frames) and print where a chain's time goes.
var phases := false
const PHASE_NAMES := ["outside Reach2D", "batch loop", "around the solve", "setup check", "read", "solver", "rotations", "write"]
## The methods the phase timer sees (the others run no Reach2D code).
const TIMED_METHODS := ["reach2d", "batch", "floor", "floor_pass"]


func _initialize() -> void:
	quick = "--quick" in OS.get_cmdline_user_args()
	if quick:
		blocks = 2
		frames_per_block = 2
		big = 16
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--k="):
			big = int(arg.substr(4))
		elif arg.begins_with("--methods="):
			methods = Array(arg.substr(10).split(","))
		elif arg.begins_with("--case="):
			only_case = arg.substr(7)
		elif arg.begins_with("--blocks="):
			blocks = int(arg.substr(9))
		elif arg == "--phases":
			phases = true
	Timing.start_watchdog(self, 60.0 if quick else 1500.0)
	_run.call_deferred()


## Chain k of a set: a skeleton (mirrored for odd k) with n bones of LENGTH px, every third one (from the second)
## with BONE_ANGLE and each child at its parent's drawn end, a target and (for the built-in CCD) a node at the tip's
## end; with the GDScript solvers' buffers.
func make_game_chain(n: int, k: int) -> Dictionary:
	var skeleton := Skeleton2D.new()
	skeleton.position = Vector2((k % 40) * 60.0, (k / 40) * 60.0)
	var mirrored := k % 2 == 1
	if mirrored:
		skeleton.scale = Vector2(-1, 1)
	root.add_child(skeleton)
	var lengths := []
	var rotations := []
	var angles := []
	for i in n:
		lengths.append(LENGTH)
		rotations.append(0.2 if i > 0 else 0.1 * (k % 7))
		angles.append(BONE_ANGLE if i % 3 == 1 else 0.0)
	var bones := Rig.chain(skeleton, lengths, rotations, "b%d", angles)
	var tip := BuiltinIk.add_tip(bones[-1])
	var target := Node2D.new()
	root.add_child(target)
	var rig := {"skeleton": skeleton, "bones": bones, "target": target, "tip": tip, "k": k,
		"sign": -1.0 if mirrored else 1.0, "joints": PackedVector2Array(), "lengths": PackedFloat32Array()}
	rig["joints"].resize(n + 1)
	rig["lengths"].resize(n)
	place_target(rig, n, 0)
	return rig


## The target of rig k at frame t: on a circle inside the chain's reach, about STEP_PX per frame.
func place_target(rig: Dictionary, n: int, t: int) -> void:
	var reach := LENGTH * n
	var k: int = rig["k"]
	var center := Vector2.from_angle(0.4 + 0.61 * k) * reach * 0.5
	var radius := reach * 0.3
	var angle := 1.3 * k + t * STEP_PX / radius
	var local := center + Vector2.from_angle(angle) * radius
	rig["target"].global_position = rig["skeleton"].global_position + local * rig["skeleton"].scale


func add_reach2d(kind: String, rig: Dictionary, mode: int) -> Node2D:
	var klass: String = {"fabrik": "FabrikChain2D", "ccd": "CcdChain2D", "two_bone": "TwoBoneIk2D"}[kind]
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.update_mode = mode
	ik.target = rig["target"]
	ik.root_bone = rig["bones"][0]
	ik.tip_bone = rig["bones"][-1]
	if kind == "fabrik":
		ik.max_iterations = 10
		ik.tolerance = 0.01
	elif kind == "ccd":
		ik.max_iterations = 1
		ik.tolerance = 0.01
	rig["skeleton"].add_child(ik)
	rig["ik"] = ik
	return ik


func add_floor(rig: Dictionary) -> RefCounted:
	var f: RefCounted = ClassDB.instantiate("Reach2DIoFloor")
	f.setup(rig["target"], rig["bones"][0], rig["bones"][-1])
	return f


# --- The GDScript solvers: global joints read from the bones, rotations written as angle changes. ---------------

func gd_read(rig: Dictionary) -> void:
	var bones: Array = rig["bones"]
	var joints: PackedVector2Array = rig["joints"]
	var lengths: PackedFloat32Array = rig["lengths"]
	var n := bones.size()
	for i in n:
		joints[i] = bones[i].global_position
	joints[n] = Rig.bone_end(bones[n - 1])
	for i in n:
		lengths[i] = joints[i].distance_to(joints[i + 1])
	rig["joints"] = joints
	rig["lengths"] = lengths


## Turns bone i so that its segment points along `direction` (global), keeping the rest of its transform.
func gd_aim(rig: Dictionary, i: int, direction: Vector2) -> void:
	var bones: Array = rig["bones"]
	var bone: Bone2D = bones[i]
	var from := bone.global_position
	var to: Vector2 = bones[i + 1].global_position if i + 1 < bones.size() else Rig.bone_end(bone)
	bone.rotation += wrapf(direction.angle() - (to - from).angle(), -PI, PI) * rig["sign"]


func gd_fabrik(rig: Dictionary, goal: Vector2) -> int:
	gd_read(rig)
	var joints: PackedVector2Array = rig["joints"]
	var lengths: PackedFloat32Array = rig["lengths"]
	var n := lengths.size()
	var base := joints[0]
	var iterations := 0
	var total := 0.0
	for l in lengths:
		total += l
	if base.distance_to(goal) >= total:
		var direction := (goal - base).normalized()
		for i in n:
			joints[i + 1] = joints[i] + direction * lengths[i]
		iterations = 1
	else:
		while iterations < 10 and joints[n].distance_to(goal) > 0.01:
			joints[n] = goal
			for i in range(n - 1, -1, -1):
				joints[i] = joints[i + 1] + (joints[i] - joints[i + 1]).normalized() * lengths[i]
			joints[0] = base
			for i in n:
				joints[i + 1] = joints[i] + (joints[i + 1] - joints[i]).normalized() * lengths[i]
			iterations += 1
	for i in n:
		gd_aim(rig, i, joints[i + 1] - joints[i])
	return iterations


func gd_ccd(rig: Dictionary, goal: Vector2) -> int:
	var bones: Array = rig["bones"]
	var tip: Bone2D = bones[-1]
	for i in range(bones.size() - 1, -1, -1):
		var bone: Bone2D = bones[i]
		var joint := bone.global_position
		var end := Rig.bone_end(tip)
		bone.rotation += wrapf((goal - joint).angle() - (end - joint).angle(), -PI, PI) * rig["sign"]
	return 1


func gd_two_bone(rig: Dictionary, goal: Vector2) -> int:
	gd_read(rig)
	var joints: PackedVector2Array = rig["joints"]
	var lengths: PackedFloat32Array = rig["lengths"]
	var a := joints[0]
	var upper := lengths[0]
	var lower := lengths[1]
	var to_goal := goal - a
	var d := clampf(to_goal.length(), absf(upper - lower) + 1e-4, upper + lower - 1e-4)
	var bend := acos(clampf((upper * upper + d * d - lower * lower) / (2.0 * upper * d), -1.0, 1.0))
	# Keep the side the limb bends to now.
	var side := 1.0 if (joints[1] - a).cross(joints[2] - joints[1]) < 0.0 else -1.0
	var joint := a + Vector2.from_angle(to_goal.angle() + side * bend) * upper
	gd_aim(rig, 0, joint - a)
	gd_aim(rig, 1, goal - joint)
	return 1


# --- Measuring --------------------------------------------------------------------------------------------------

func heap_counts() -> Array:
	if not ClassDB.class_exists("Reach2DDebug"):
		return [-1, -1]
	return [ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations"),
		ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations")]


## One timed frame of `method` over its rigs; returns microseconds per chain and adds iterations.
func run_frame(kind: String, method: String, group: Dictionary, t: int) -> float:
	var rigs: Array = group["rigs"]
	var n: int = group["n"]
	for rig in rigs:
		place_target(rig, n, t)
	var timed_phases: bool = group.has("phases")
	if timed_phases:
		ClassDB.class_call_static("Reach2DIoFloor", "start_phases")
	var start := Time.get_ticks_usec()
	match method:
		"reach2d":
			for ik in group["iks"]:
				ik.solve()
		"batch":
			Reach2D.solve_all(group["iks"])
		"builtin":
			for rig in rigs:
				rig["skeleton"].execute_modifications(0.016, 0)
		"floor":
			for f in group["floors"]:
				f.run()
		"floor_pass":
			group["pass"].run()
		"gdscript":
			var iterations := 0
			match kind:
				"fabrik":
					for rig in rigs:
						iterations += gd_fabrik(rig, rig["target"].global_position)
				"ccd":
					for rig in rigs:
						iterations += gd_ccd(rig, rig["target"].global_position)
				"two_bone":
					for rig in rigs:
						iterations += gd_two_bone(rig, rig["target"].global_position)
			group["iterations"] += iterations
	var elapsed := Time.get_ticks_usec() - start
	if timed_phases:
		var ns: PackedFloat64Array = ClassDB.class_call_static("Reach2DIoFloor", "stop_phases")
		for i in ns.size():
			group["phases"][i] += ns[i] / rigs.size()
	if method in ["reach2d", "batch"]:
		for ik in group["iks"]:
			group["iterations"] += ik.last_iterations
	return float(elapsed) / rigs.size()


func make_set(kind: String, method: String, n: int, k: int) -> Dictionary:
	var group := {"rigs": [], "iks": [], "floors": [], "n": n, "iterations": 0, "solves": 0, "t": 0,
		"samples": [], "errors": [], "allocations": 0, "all_allocations": 0}
	for c in k:
		var rig := make_game_chain(n, c)
		group["rigs"].append(rig)
		match method:
			"reach2d", "batch":
				group["iks"].append(add_reach2d(kind, rig, 2))
			"builtin":
				BuiltinIk.add(kind, rig)
			"floor":
				group["floors"].append(add_floor(rig))
			"floor_pass":
				if not group.has("pass"):
					group["pass"] = ClassDB.instantiate("Reach2DIoFloorPass")
				group["pass"].add(add_floor(rig))
	return group


func free_set(group: Dictionary) -> void:
	for rig in group["rigs"]:
		rig["skeleton"].free()
		rig["target"].free()


## Every method on its own K rigs, taking turns in blocks of `frames_per_block` frames (the order rotates each
## block); the first block of each method is a warm-up and not counted.
func measure(kind: String, n: int, k: int) -> Dictionary:
	var sets := {}
	for method in methods:
		sets[method] = make_set(kind, method, n, k)
	for b in blocks + 1:
		for m in methods.size():
			var method: String = methods[(m + b) % methods.size()]
			var group: Dictionary = sets[method]
			var heap := heap_counts()
			var block_us := 0.0
			var iterations_before: int = group["iterations"]
			for f in frames_per_block:
				group["t"] += 1
				block_us += run_frame(kind, method, group, group["t"])
				# Every method's tips are read back (the floor's too, though it solves nothing): the global transforms
				# are clean before the next frame's writes, as after a rendered frame.
				if readback:
					for rig in group["rigs"]:
						var error := Rig.bone_end(rig["bones"][-1]).distance_to(rig["target"].global_position)
						if b > 0 and not method.begins_with("floor"):
							group["errors"].append(error)
			if b == 0:
				group["iterations"] = iterations_before
				if phases and method in TIMED_METHODS:
					group["phases"] = []
					group["phases"].resize(PHASE_NAMES.size())
					group["phases"].fill(0.0)
				continue
			group["solves"] += frames_per_block * k
			group["samples"].append(block_us / frames_per_block)
			var after := heap_counts()
			group["allocations"] += after[0] - heap[0]
			group["all_allocations"] += after[1] - heap[1]
	var result := {}
	for method in methods:
		var group: Dictionary = sets[method]
		if group.has("phases"):
			var per_frame := PackedFloat64Array()
			for ns in group["phases"]:
				per_frame.append(ns / (blocks * frames_per_block))
			print_phases(kind, n, method, per_frame)
		result[method] = {"time": Timing.stats(group["samples"]), "error": Timing.stats(group["errors"]),
			"iterations": float(group["iterations"]) / maxi(group["solves"], 1), "solves": group["solves"],
			"allocations": group["allocations"], "all_allocations": group["all_allocations"]}
		free_set(group)
	return result


## One row of the per-phase table: ns per chain per frame in each phase, mean over the counted frames.
func print_phases(kind: String, n: int, method: String, ns: PackedFloat64Array) -> void:
	var total := 0.0
	var cells := []
	for value in ns:
		total += value
		cells.append("%.0f" % value)
	print("| phases | %s | %d | %s | %s | %.0f |" % [kind, n, method, " | ".join(cells), total])
	# The timer must have seen the work: a node's solve is charged to the solver, every method to its read.
	var solving: bool = method in ["reach2d", "batch"]
	if total <= 0.0 or ns[4] <= 0.0 or (solving and ns[5] <= 0.0):
		printerr("SCRIPT ERROR: bench_game: the phase timer saw no work for %s (%s)" % [method, cells])


func fmt_error(s: Dictionary) -> String:
	return "%.3f / %.3f / %.3f" % [s["mean"], s["p99"], s["max"]]


func solve_table() -> void:
	var cases := [["fabrik", 8, big], ["ccd", 8, big], ["two_bone", 2, big]] if quick else [
		["fabrik", 2, big], ["fabrik", 4, big], ["fabrik", 8, big], ["fabrik", 16, big], ["fabrik", 64, maxi(big / 5, 1)],
		["ccd", 4, big], ["ccd", 8, big], ["ccd", 16, big], ["two_bone", 2, big]]
	print("# Realistic workload: us per chain, median [p10, p90] over %d blocks of %d frames; tip error px mean / p99 / max" % [blocks, frames_per_block])
	Timing.print_table_head("| solver | N | K | Reach2D us | batch us | built-in us | GDScript us | I/O floor us | I/O floor, checks once per frame us | built-in / Reach2D | built-in / batch | Reach2D / floor | batch / floor | batch / floor once per frame | batch / Reach2D | GDScript / Reach2D | Reach2D iterations | GDScript iterations | Reach2D error | batch error | built-in error | GDScript error | heap allocations: nodes' code / all Rust / solves, Reach2D; batch |")
	if only_case != "":
		var parts := only_case.split(":")
		cases = [[parts[0], int(parts[1]), big]]
	for case in cases:
		var kind: String = case[0]
		var n: int = case[1]
		var k: int = case[2]
		var r := measure(kind, n, k)
		if methods != ALL_METHODS:
			for method in methods:
				print("| %s | %d | %d | %s | %s |" % [kind, n, k, method, Timing.fmt_time(r[method]["time"])])
			continue
		var ours: Dictionary = r["reach2d"]
		var batch: Dictionary = r["batch"]
		var ot: float = ours["time"]["median"]
		var bt: float = batch["time"]["median"]
		var ft: float = r["floor"]["time"]["median"]
		var pt: float = r["floor_pass"]["time"]["median"]
		print("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %.2fx | %.2fx | %.2fx | %.2fx | %.2fx | %.2fx | %.2fx | %.2f | %.2f | %s | %s | %s | %s | %d / %d / %d; %d / %d / %d |" % [
			kind, n, k, Timing.fmt_time(ours["time"]), Timing.fmt_time(batch["time"]), Timing.fmt_time(r["builtin"]["time"]),
			Timing.fmt_time(r["gdscript"]["time"]), Timing.fmt_time(r["floor"]["time"]), Timing.fmt_time(r["floor_pass"]["time"]),
			r["builtin"]["time"]["median"] / ot, r["builtin"]["time"]["median"] / bt, ot / ft, bt / ft, bt / pt, bt / ot, r["gdscript"]["time"]["median"] / ot,
			ours["iterations"], r["gdscript"]["iterations"], fmt_error(ours["error"]), fmt_error(batch["error"]),
			fmt_error(r["builtin"]["error"]), fmt_error(r["gdscript"]["error"]),
			ours["allocations"], ours["all_allocations"], ours["solves"],
			batch["allocations"], batch["all_allocations"], batch["solves"]])
		if ours["allocations"] != 0 or batch["allocations"] != 0 or r["floor"]["allocations"] != 0:
			print("# heap allocations in the nodes' per-frame code: reach2d %d, batch %d, floor %d" % [
				ours["allocations"], batch["allocations"], r["floor"]["allocations"]])


## The same workload without reading anything back between frames (nothing reads the bones' global transforms,
## as when no skin or physics follows the bones and nothing is drawn).
func no_readback_table() -> void:
	var cases := [["fabrik", 8, big]] if quick else [["fabrik", 2, big], ["fabrik", 8, big], ["fabrik", 16, big], ["ccd", 8, big], ["two_bone", 2, big]]
	var saved: Array = methods
	methods = NO_READBACK_METHODS
	readback = false
	print("")
	print("# Without read-back between frames: us per chain, median [p10, p90] over %d blocks of %d frames" % [blocks, frames_per_block])
	Timing.print_table_head("| solver | N | K | Reach2D us | batch us | built-in us | I/O floor us | I/O floor, checks once per frame us | built-in / Reach2D | built-in / batch | Reach2D / floor | batch / floor | batch / floor once per frame |")
	for case in cases:
		var r := measure(case[0], case[1], case[2])
		var ot: float = r["reach2d"]["time"]["median"]
		var bt: float = r["batch"]["time"]["median"]
		var ft: float = r["floor"]["time"]["median"]
		var pt: float = r["floor_pass"]["time"]["median"]
		var builtin: float = r["builtin"]["time"]["median"]
		print("| %s | %d | %d | %s | %s | %s | %s | %s | %.2fx | %.2fx | %.2fx | %.2fx | %.2fx |" % [case[0], case[1], case[2],
			Timing.fmt_time(r["reach2d"]["time"]), Timing.fmt_time(r["batch"]["time"]), Timing.fmt_time(r["builtin"]["time"]),
			Timing.fmt_time(r["floor"]["time"]), Timing.fmt_time(r["floor_pass"]["time"]), builtin / ot, builtin / bt, ot / ft, bt / ft, bt / pt])
	methods = saved
	readback = true


## The floor's parts: nanoseconds per engine call, and the alternatives it was chosen from (us per chain).
func floor_table() -> void:
	var n := 8
	var k := big
	var rigs := []
	var floors := []
	for c in k:
		var rig := make_game_chain(n, c)
		rigs.append(rig)
		floors.append(add_floor(rig))
	var calls := ["get_rotation", "get_transform", "set_rotation (root)", "set_rotation (tip)",
		"get_global_transform (skeleton)", "get_global_position (target)", "is_instance_valid", "is_inside_tree",
		"get_bone_angle", "get_length", "instance_id"]
	print("")
	print("# Engine calls from Rust: ns per call, median [p10, p90] over %d runs of 2000 calls" % blocks)
	Timing.print_table_head("| call | ns |")
	for c in calls.size():
		var samples := []
		for b in blocks:
			samples.append(floors[b % k].time_call(c, 2000))
		print("| %s | %s |" % [calls[c], Timing.fmt_time(Timing.stats(samples))])
	var variants := ["nodes' path: checks + read + set_rotation, tip to root", "cached handles, no checks: get_transform + get_rotation, set_rotation root to tip",
		"same, written tip to root", "get_global_transform per bone instead of get_transform", "set_transform instead of set_rotation",
		"get_rotation only (no transform read)", "read only, no write",
		"cached handles, checks once per frame: the nodes' path as one tree-watch pass (the batch's)"]
	var floor_pass: RefCounted = ClassDB.instantiate("Reach2DIoFloorPass")
	for f in floors:
		floor_pass.add(f)
	var samples := []
	for v in variants.size():
		samples.append([])
	for b in blocks:
		for v in variants.size():
			var t0 := Time.get_ticks_usec()
			if v == variants.size() - 1:
				floor_pass.run()
			else:
				for f in floors:
					if v == 0:
						f.run()
					else:
						f.run_variant(v)
			samples[v].append(float(Time.get_ticks_usec() - t0) / k)
			# Read the tips back: clean global transforms before the next writes, as after a rendered frame.
			for rig in rigs:
				Rig.bone_end(rig["bones"][-1])
			# Move the skeletons so that every run reads dirty global transforms, as a game frame does.
			for rig in rigs:
				rig["skeleton"].position.x += 0.5 if b % 2 == 0 else -0.5
	print("")
	print("# I/O floor alternatives, N = %d, K = %d: us per chain, median [p10, p90] over %d blocks" % [n, k, blocks])
	Timing.print_table_head("| variant | us per chain | per bone |")
	for v in variants.size():
		var s := Timing.stats(samples[v])
		print("| %s | %s | %.3f |" % [variants[v], Timing.fmt_time(s), s["median"] / n])
	for rig in rigs:
		rig["skeleton"].free()
		rig["target"].free()


## A node that records when its _process ran, with the given process priority.
func marker(priority: int) -> Node:
	var script := GDScript.new()
	script.source_code = "extends Node\nvar usec := 0\nfunc _process(_delta: float) -> void:\n\tusec = Time.get_ticks_usec()\n"
	script.reload()
	var node := Node.new()
	node.set_script(script)
	node.process_priority = priority
	root.add_child(node)
	return node


## Engine-driven frames: the Reach2D nodes in UPDATE_PROCESS against the built-in stacks running by themselves,
## in turns of `frames` frames (the other set and its skeletons disabled); the time from a node that processes first to one that processes last, per frame (node processing: the Reach2D
## nodes' _process, the skeletons' internal process that runs the built-in stacks).
func frame_table() -> void:
	var k := big
	var turns := 2 if quick else 8
	var frames := 10 if quick else 30
	print("")
	print("# Engine-driven frames, K = %d characters: node processing time per frame in ms, median [p10, p90] over %d turns of %d frames" % [k, turns, frames])
	var first := marker(-1000000)
	var last := marker(1000000)
	Timing.print_table_head("| solver | N | Reach2D UPDATE_PROCESS, batched ms | same, per node (own priority) ms | built-in stacks ms | nothing ms | Reach2D disabled, batched ms | built-in / batched | built-in / per node | per node / batched | built-in / batched, minus nothing | batched heap allocations: nodes' code / all Rust / frames |")
	for case in [["fabrik", 8], ["two_bone", 2]]:
		var kind: String = case[0]
		var n: int = case[1]
		var ours := []
		var per_node := []
		var theirs := []
		for c in k:
			var a := make_game_chain(n, c)
			add_reach2d(kind, a, 0)
			ours.append(a)
			# A process priority of its own: not batched, each node runs its own _process (the per-node path).
			var p := make_game_chain(n, c)
			var own := add_reach2d(kind, p, 0)
			p["skeleton"].remove_child(own)
			own.process_priority = 101
			own.process_physics_priority = 101
			p["skeleton"].add_child(own)
			per_node.append(p)
			var b := make_game_chain(n, c)
			BuiltinIk.add(kind, b)
			theirs.append(b)
		var samples := {"reach2d": [], "per_node": [], "builtin": [], "none": [], "dispatch": []}
		var allocations := 0
		var all_allocations := 0
		var counted_frames := 0
		var t := 0
		for turn in turns + 1:
			# "dispatch": the Reach2D nodes process but are disabled (enabled = false): the per-node callback alone.
			for which in ["reach2d", "per_node", "builtin", "none", "dispatch"]:
				for rig in ours:
					rig["skeleton"].process_mode = Node.PROCESS_MODE_INHERIT if which in ["reach2d", "dispatch"] else Node.PROCESS_MODE_DISABLED
					rig["ik"].enabled = which != "dispatch"
				for rig in per_node:
					rig["skeleton"].process_mode = Node.PROCESS_MODE_INHERIT if which == "per_node" else Node.PROCESS_MODE_DISABLED
				for rig in theirs:
					rig["skeleton"].process_mode = Node.PROCESS_MODE_INHERIT if which == "builtin" else Node.PROCESS_MODE_DISABLED
				var heap := heap_counts()
				for f in frames + 2:
					t += 1
					var active: Array = theirs if which == "builtin" else (per_node if which == "per_node" else ours)
					for rig in active:
						place_target(rig, n, t)
					await process_frame
					# The first two frames of a turn settle the switch.
					if turn > 0 and f >= 2:
						samples[which].append((last.usec - first.usec) / 1000.0)
				if turn > 0 and which == "reach2d":
					var after := heap_counts()
					allocations += after[0] - heap[0]
					all_allocations += after[1] - heap[1]
					counted_frames += frames + 2
		var o := Timing.stats(samples["reach2d"])
		var p := Timing.stats(samples["per_node"])
		var b := Timing.stats(samples["builtin"])
		var z := Timing.stats(samples["none"])
		var d := Timing.stats(samples["dispatch"])
		print("| %s | %d | %s | %s | %s | %s | %s | %.2fx | %.2fx | %.2fx | %.2fx | %d / %d / %d |" % [kind, n, Timing.fmt_time(o), Timing.fmt_time(p), Timing.fmt_time(b), Timing.fmt_time(z), Timing.fmt_time(d),
			b["median"] / o["median"], b["median"] / p["median"], p["median"] / o["median"],
			(b["median"] - z["median"]) / maxf(o["median"] - z["median"], 1e-6),
			allocations, all_allocations, counted_frames])
		for rig in ours + per_node + theirs:
			rig["skeleton"].free()
			rig["target"].free()
	first.free()
	last.free()


func _run() -> void:
	print("Godot %s (%s build), quick = %s" % [Engine.get_version_info()["string"], "debug" if OS.is_debug_build() else "release", quick])
	if not ClassDB.class_exists("Reach2DIoFloor"):
		printerr("SCRIPT ERROR: the extension was built without the `bench` feature (run `cargo xtask bench`)")
		quit(1)
		return
	if only_case == "frames":
		await frame_table()
		print("REACH2D_DONE")
		quit(0)
		return
	if only_case == "no_readback":
		no_readback_table()
		print("REACH2D_DONE")
		quit(0)
		return
	if only_case == "floor":
		floor_table()
		print("REACH2D_DONE")
		quit(0)
		return
	solve_table()
	if only_case != "" or methods != ALL_METHODS:
		print("REACH2D_DONE")
		quit(0)
		return
	no_readback_table()
	floor_table()
	await frame_table()
	print("REACH2D_DONE")
	quit(0)
