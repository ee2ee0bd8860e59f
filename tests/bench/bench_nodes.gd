extends SceneTree
## Reach2D's nodes against Godot's built-in SkeletonModification2D solvers on the same chains, in one process.
## Run with `cargo xtask bench` (release build of the extension). Prints median and spread per chain solve, the
## ratio built-in / Reach2D, and the end-effector error each leaves, unmirrored and mirrored.

const CHAINS_PER_SET := 64
const REPEATS := 41
const LENGTH := 24.0
## The Bone2D chain builder shared with the tests and the demo (a link to godot_project/common/rig.gd).
const Rig := preload("res://lib/rig.gd")
const BuiltinIk := preload("res://bench/builtin_ik.gd")
const Timing := preload("res://bench/timing.gd")


func _initialize() -> void:
	Timing.start_watchdog(self, 600.0)
	_run.call_deferred()


## A skeleton with an n-bone chain of LENGTH px bones along a gentle curve (each turned 0.15 rad, bone angles 0),
## mirrored when `mirrored`, plus a target and a Node2D at the tip's end.
func make_curved_chain(n: int, at: Vector2, mirrored: bool) -> Dictionary:
	var skeleton := Skeleton2D.new()
	skeleton.position = at
	if mirrored:
		skeleton.scale = Vector2(-1, 1)
	root.add_child(skeleton)
	var lengths := []
	lengths.resize(n)
	lengths.fill(LENGTH)
	var rotations := []
	rotations.resize(n)
	rotations.fill(0.15)
	var bones := Rig.chain(skeleton, lengths, rotations, "b%d")
	var tip := BuiltinIk.add_tip(bones[-1])
	var target := Node2D.new()
	root.add_child(target)
	return {"skeleton": skeleton, "bones": bones, "target": target, "tip": tip}


func add_reach2d(kind: String, rig: Dictionary, iterations: int) -> Node2D:
	var klass: String = {"fabrik": "FabrikChain2D", "ccd": "CcdChain2D", "two_bone": "TwoBoneIk2D"}[kind]
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.update_mode = 2
	ik.target = rig["target"]
	ik.root_bone = rig["bones"][0]
	ik.tip_bone = rig["bones"][-1]
	if kind != "two_bone":
		# The built-in solvers run a fixed number of iterations: match them, with no early exit.
		ik.max_iterations = iterations
		ik.tolerance = 0.0
	root.add_child(ik)
	return ik


func reset(rig: Dictionary) -> void:
	for bone in rig["bones"]:
		bone.rotation = 0.15


func place_target(rig: Dictionary, k: int, n: int) -> void:
	var skeleton: Skeleton2D = rig["skeleton"]
	var reach := LENGTH * n
	var angle := 0.7 + 0.37 * k
	rig["target"].global_position = skeleton.global_position + Vector2(cos(angle), sin(angle)) * reach * 0.6


## Median/spread of the time to solve each chain once, and the mean effector error after one solve.
func measure(kind: String, n: int, use_builtin: bool, mirrored: bool) -> Dictionary:
	var rigs := []
	var iks := []
	for c in CHAINS_PER_SET:
		var rig := make_curved_chain(n, Vector2(200 + (c % 8) * 220, 200 + (c / 8) * 220), mirrored)
		rigs.append(rig)
		if use_builtin:
			BuiltinIk.add(kind, rig)
		else:
			iks.append(add_reach2d(kind, rig, 10))
	var samples := []
	var error_sum := 0.0
	for r in REPEATS:
		for c in rigs.size():
			reset(rigs[c])
			place_target(rigs[c], c + r, n)
		var start := Time.get_ticks_usec()
		if use_builtin:
			for rig in rigs:
				rig["skeleton"].execute_modifications(0.016, 0)
		else:
			for ik in iks:
				ik.solve()
		var elapsed := Time.get_ticks_usec() - start
		samples.append(float(elapsed) / rigs.size())
		if r == REPEATS - 1:
			for rig in rigs:
				error_sum += Rig.bone_end(rig["bones"][-1]).distance_to(rig["target"].global_position)
	for rig in rigs:
		rig["skeleton"].free()
		rig["target"].free()
	for ik in iks:
		ik.free()
	var s := Timing.stats(samples)
	s["error"] = error_sum / rigs.size()
	return s


## SpringChain2D against the built-in SkeletonModification2DJiggle on the same chains: one 1/60 s frame each (the
## spring simulates it in 4 substeps of 1/240 s; the jiggle takes one step per frame). Chains swing: their
## skeletons move every frame, so neither settles.
##
## With `colliders` both collide with a StaticBody2D floor under each chain, 40 px below its root (the longer chains
## start through it, the swaying skeletons drag them along it): the spring with `use_colliders` (radius 4), the
## jiggle with `use_colliders` (its ray per joint needs the physics execution mode). `engine`: the spring's
## queries answered by the physics engine (Reach2DDebug.set_spring_engine_queries) instead of its local narrow
## phase. `floor_drop`: how far below the root the floor's top lies (40 px: in contact; 400: out of reach, one
## bounding query per chain and frame). `spacing`: the distance between chains (px); at 220 the longer chains'
## bounding circles also reach their neighbours' floors (N = 16: 7.7 floors per chain and frame), at 1000 each
## chain meets only its own.
func measure_spring(n: int, use_builtin: bool, colliders := false, engine := false, floor_drop := 40.0, spacing := 220.0) -> Dictionary:
	var rigs := []
	var springs := []
	var floors := []
	for c in CHAINS_PER_SET:
		var at := Vector2(200 + (c % 8) * spacing, 200 + (c / 8) * spacing)
		var rig := make_curved_chain(n, at, c % 2 == 1)
		rigs.append(rig)
		if colliders:
			var body := StaticBody2D.new()
			body.position = at + Vector2(0, floor_drop + 10)
			var shape := CollisionShape2D.new()
			var rect := RectangleShape2D.new()
			rect.size = Vector2(2 * n * LENGTH + 40, 20)
			shape.shape = rect
			body.add_child(shape)
			root.add_child(body)
			floors.append(body)
		if use_builtin:
			var skeleton: Skeleton2D = rig["skeleton"]
			var bones: Array = rig["bones"]
			var m := SkeletonModification2DJiggle.new()
			m.jiggle_data_chain_length = n
			for i in n:
				m.set_jiggle_joint_bone2d_node(i, skeleton.get_path_to(bones[i]))
				m.set_jiggle_joint_bone_index(i, bones[i].get_index_in_skeleton())
			rig["target"].global_position = Rig.bone_end(rig["bones"][-1])
			m.target_nodepath = skeleton.get_path_to(rig["target"])
			m.use_gravity = true
			m.gravity = Vector2(0, 6)
			if colliders:
				m.use_colliders = true
				m.collision_mask = 1
				m.execution_mode = 1
			var stack := SkeletonModificationStack2D.new()
			stack.add_modification(m)
			skeleton.set_modification_stack(stack)
			stack.enabled = true
		else:
			var spring: Node2D = ClassDB.instantiate("SpringChain2D")
			spring.update_mode = 2
			spring.root_bone = rig["bones"][0]
			spring.tip_bone = rig["bones"][-1]
			spring.gravity = Vector2(0, 980)
			spring.use_colliders = colliders
			root.add_child(spring)
			springs.append(spring)
	if colliders:
		for i in 2:
			await physics_frame
	ClassDB.class_call_static("Reach2DDebug", "set_spring_engine_queries", engine)
	var read_before: int = ClassDB.class_call_static("Reach2DDebug", "spring_shapes_read")
	var samples := []
	var finite := true
	var mode := 1 if colliders else 0
	for r in REPEATS:
		for c in rigs.size():
			rigs[c]["skeleton"].position += Vector2(sin(r * 0.5 + c), cos(r * 0.3)) * 4.0
		var start := Time.get_ticks_usec()
		if use_builtin:
			for rig in rigs:
				rig["skeleton"].execute_modifications(1.0 / 60.0, mode)
		else:
			for spring in springs:
				spring.advance(1.0 / 60.0)
		var elapsed := Time.get_ticks_usec() - start
		samples.append(float(elapsed) / rigs.size())
	for rig in rigs:
		finite = finite and Rig.bone_end(rig["bones"][-1]).is_finite()
		rig["skeleton"].free()
		rig["target"].free()
	for spring in springs:
		spring.free()
	ClassDB.class_call_static("Reach2DDebug", "set_spring_engine_queries", false)
	var shapes_read: int = ClassDB.class_call_static("Reach2DDebug", "spring_shapes_read") - read_before
	for body in floors:
		body.free()
	var s := Timing.stats(samples)
	s["finite"] = finite
	s["shapes"] = float(shapes_read) / (REPEATS * rigs.size())
	return s


func spring_table() -> void:
	print("")
	print("Secondary motion: microseconds per chain per 1/60 s frame (median [p10, p90]); half the chains mirrored")
	Timing.print_table_head("| N | SpringChain2D us | per bone | per bone per substep | built-in jiggle us | per bone | jiggle / spring |")
	for n in [4, 8, 16]:
		var ours: Dictionary = await measure_spring(n, false)
		var theirs: Dictionary = await measure_spring(n, true)
		print("| %d | %s | %.3f | %.3f | %s | %.3f | %.2fx |" % [n, Timing.fmt_time(ours), ours["median"] / n,
			ours["median"] / n / 4.0, Timing.fmt_time(theirs), theirs["median"] / n, theirs["median"] / ours["median"]])
		if not (ours["finite"] and theirs["finite"]):
			print("| %d | not finite: spring %s, jiggle %s | | | | | |" % [n, ours["finite"], theirs["finite"]])
	print("")
	print("Colliders (a StaticBody2D floor under each chain): microseconds per chain per 1/60 s frame (median [p10, p90])")
	Timing.print_table_head("| N | spring, colliders off | spring, colliders on | on / off | jiggle, colliders on | jiggle / spring (both on) |")
	for n in [4, 8, 16]:
		var off: Dictionary = await measure_spring(n, false, false)
		var on: Dictionary = await measure_spring(n, false, true)
		var jiggle: Dictionary = await measure_spring(n, true, true)
		print("| %d | %s | %s | %.2fx | %s | %.2fx |" % [n, Timing.fmt_time(off), Timing.fmt_time(on),
			on["median"] / off["median"], Timing.fmt_time(jiggle), jiggle["median"] / on["median"]])
		if not (off["finite"] and on["finite"] and jiggle["finite"]):
			print("| %d | not finite: off %s, on %s, jiggle %s | | | | |" % [n, off["finite"], on["finite"], jiggle["finite"]])
	print("")
	print("Colliders, local narrow phase vs the engine's queries (a StaticBody2D floor under each chain, in contact; and out of reach): microseconds per chain per 1/60 s frame (median [p10, p90])")
	Timing.print_table_head("| N | spring, colliders off | on, local | on, engine queries | local / off | engine / local | jiggle, colliders on | jiggle / local | on, local, floor out of reach | out of reach / off | shapes read per chain and frame |")
	for n in [4, 8, 16]:
		var paths: Dictionary = await measure_collider_paths(n, 220.0)
		var far: Dictionary = await measure_spring(n, false, true, false, 2000.0)
		print("| %d | %s | %s | %.2fx | %.1f |" % [n, collider_path_cells(paths), Timing.fmt_time(far),
			far["median"] / paths["off"]["median"], paths["local"]["shapes"]])
		for d in paths.values() + [far]:
			if not d["finite"]:
				print("| %d | not finite | | | | | | | | | |" % n)
	print("")
	print("Colliders, each chain alone with its floor (chains 1000 px apart): microseconds per chain per 1/60 s frame (median [p10, p90])")
	Timing.print_table_head("| N | spring, colliders off | on, local | on, engine queries | local / off | engine / local | jiggle, colliders on | jiggle / local | shapes read per chain and frame |")
	for n in [4, 8, 16]:
		var paths: Dictionary = await measure_collider_paths(n, 1000.0)
		print("| %d | %s | %.1f |" % [n, collider_path_cells(paths), paths["local"]["shapes"]])


## The spring's collider paths on chains of `n` bones `spacing` px apart, each over a floor 40 px below its root (in
## contact), measured in this order: colliders off, on with the local narrow phase, on with the engine's queries, and
## the built-in jiggle with its colliders.
func measure_collider_paths(n: int, spacing: float) -> Dictionary:
	var off: Dictionary = await measure_spring(n, false, false, false, 40.0, spacing)
	var local: Dictionary = await measure_spring(n, false, true, false, 40.0, spacing)
	var engine: Dictionary = await measure_spring(n, false, true, true, 40.0, spacing)
	var jiggle: Dictionary = await measure_spring(n, true, true, false, 40.0, spacing)
	return {"off": off, "local": local, "engine": engine, "jiggle": jiggle}


## The table cells of measure_collider_paths' runs: each time, local / off, engine / local, the jiggle's time and
## jiggle / local.
func collider_path_cells(paths: Dictionary) -> String:
	var off: Dictionary = paths["off"]
	var local: Dictionary = paths["local"]
	var engine: Dictionary = paths["engine"]
	var jiggle: Dictionary = paths["jiggle"]
	return "%s | %s | %s | %.2fx | %.2fx | %s | %.2fx" % [Timing.fmt_time(off), Timing.fmt_time(local),
		Timing.fmt_time(engine), local["median"] / off["median"], engine["median"] / local["median"],
		Timing.fmt_time(jiggle), jiggle["median"] / local["median"]]


func _run() -> void:
	if "--spring-only" in OS.get_cmdline_user_args():
		print("Godot %s, %d chains per set, %d repeats; spring tables only" % [Engine.get_version_info()["string"], CHAINS_PER_SET, REPEATS])
		await spring_table()
		print("REACH2D_DONE")
		quit(0)
		return
	print("Godot %s, %d chains per set, %d repeats; microseconds per chain solve (median [p10, p90])" % [Engine.get_version_info()["string"], CHAINS_PER_SET, REPEATS])
	Timing.print_table_head("| solver | N | Reach2D us | built-in us | built-in / Reach2D | Reach2D error px | built-in error px | mirrored: Reach2D error | mirrored: built-in error |")
	var cases := [["fabrik", 4], ["fabrik", 8], ["fabrik", 16], ["ccd", 4], ["ccd", 8], ["ccd", 16], ["two_bone", 2]]
	for case in cases:
		var kind: String = case[0]
		var n: int = case[1]
		var ours := measure(kind, n, false, false)
		var theirs := measure(kind, n, true, false)
		var ours_m := measure(kind, n, false, true)
		var theirs_m := measure(kind, n, true, true)
		print("| %s | %d | %s | %s | %.1fx | %.3f | %.3f | %.3f | %.3f |" % [kind, n, Timing.fmt_time(ours),
			Timing.fmt_time(theirs), theirs["median"] / ours["median"], ours["error"], theirs["error"], ours_m["error"],
			theirs_m["error"]])
	await spring_table()
	# The floor under every row: one GDScript call into the extension that does nothing.
	var probe: Node2D = ClassDB.instantiate("FabrikChain2D")
	root.add_child(probe)
	var calls := []
	for r in REPEATS:
		var start := Time.get_ticks_usec()
		for i in 1000:
			probe.has_angle_limits(0)
		calls.append((Time.get_ticks_usec() - start) / 1000.0)
	var c := Timing.stats(calls)
	print("| call overhead (has_angle_limits) | - | %.3f [%.3f, %.3f] | | | | | | |" % [c["median"], c["p10"], c["p90"]])
	print("REACH2D_DONE")
	quit(0)
