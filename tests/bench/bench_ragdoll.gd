extends SceneTree
## Ragdoll2D against what users build today (issue 40): per figure a RigidBody2D and a PinJoint2D per bone and a
## GDScript loop that copies the bodies' transforms to the bones every physics frame. 100 figures of 12 bones
## (tests/lib/ragdolls.gd) dropped on a floor, each setup in turn in the same run, twice (A, B, A, B). Run with
## `--fixed-fps 60` (`cargo xtask bench --only ragdoll` passes it): every frame is then one physics tick and its
## process frame, run back to back, so the wall time between two frames is all that frame's work (the nodes'
## callbacks, the copy loop, the physics step, the bodies' state sync). Prints that time, median [p10, p90] over
## the frames after the first second, and the Ragdoll2D's heap allocations in its own frame code. Needs the
## release build with the `bench` feature; `-- --quick` runs 10 figures for a few frames.

const Ragdolls := preload("res://lib/ragdolls.gd")
const Rig := preload("res://lib/rig.gd")
const Timing := preload("res://bench/timing.gd")

var figures := 100
var frames := 300


func _initialize() -> void:
	Timing.start_watchdog(self, 900.0)
	if "--quick" in OS.get_cmdline_user_args():
		figures = 10
		frames = 80
	_run.call_deferred()


func make_floor(parent: Node) -> void:
	var body := StaticBody2D.new()
	body.position = Vector2(figures * 30, 900)
	var shape := CollisionShape2D.new()
	var rect := RectangleShape2D.new()
	rect.size = Vector2(figures * 60 + 400, 200)
	shape.shape = rect
	body.add_child(shape)
	parent.add_child(body)


## The figures of one setup under `parent`, standing in a row, tilted so they fall.
func make_figures(parent: Node) -> Array:
	var out := []
	for k in figures:
		var f := Ragdolls.figure(parent, Vector2(k * 60, 600))
		f["skeleton"].rotation = 0.3 if k % 2 == 0 else -0.3
		out.append(f)
	return out


## What users write: a RigidBody2D per bone (a capsule along it), a PinJoint2D at each child's origin, the bones of
## one figure excepted from each other's collisions. Returns [bone, body] pairs.
func build_by_hand(parent: Node, f: Dictionary) -> Array:
	var bones: Array = f["bones"]
	var bodies := []
	for b in bones:
		var body := RigidBody2D.new()
		var axis: Vector2 = b.global_transform.basis_xform(Vector2.from_angle(b.get_bone_angle()))
		body.global_position = b.global_position
		body.rotation = axis.angle()
		body.mass = b.get_length() * 0.02
		body.linear_damp = 2.0
		var shape := CollisionShape2D.new()
		var capsule := CapsuleShape2D.new()
		capsule.radius = 4.0
		capsule.height = b.get_length() + 8.0
		shape.shape = capsule
		shape.position = Vector2(b.get_length() / 2.0, 0)
		shape.rotation = PI / 2
		body.add_child(shape)
		parent.add_child(body)
		bodies.append(body)
	for i in bones.size():
		for j in range(i + 1, bones.size()):
			bodies[i].add_collision_exception_with(bodies[j])
		if i == 0:
			continue
		var p := bones.find(bones[i].get_parent() as Bone2D)
		var joint := PinJoint2D.new()
		parent.add_child(joint)
		joint.global_position = bones[i].global_position
		joint.node_a = joint.get_path_to(bodies[p])
		joint.node_b = joint.get_path_to(bodies[i])
	var pairs := []
	for i in bones.size():
		pairs.append([bones[i], bodies[i]])
	return pairs


## The copy loop users write in _physics_process: each bone's global transform from its body.
class CopyLoop extends Node:
	var pairs: Array = []

	func _physics_process(_delta: float) -> void:
		for pair in pairs:
			var bone: Bone2D = pair[0]
			var body: RigidBody2D = pair[1]
			bone.global_position = body.global_position
			bone.global_rotation = body.global_rotation - bone.get_bone_angle()


## Runs one setup for `frames` physics frames; returns the physics and process times (ms) after the first second,
## and the Ragdoll2D's heap allocations.
func run_setup(by_hand: bool) -> Dictionary:
	var scene := Node2D.new()
	root.add_child(scene)
	make_floor(scene)
	var made := make_figures(scene)
	var ragdolls := []
	var loop := CopyLoop.new()
	if by_hand:
		for f in made:
			loop.pairs.append_array(build_by_hand(scene, f))
		scene.add_child(loop)
	else:
		for f in made:
			ragdolls.append(Ragdolls.ragdoll(scene, f))
	await physics_frame
	await physics_frame
	for r in ragdolls:
		r.start()
	var times := []
	var ticks := []
	var allocations := 0
	await process_frame
	for seen in frames:
		var before: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") if ClassDB.class_exists("Reach2DDebug") else 0
		var physics_before := Engine.get_physics_frames()
		var start := Time.get_ticks_usec()
		await process_frame
		if seen >= 60:
			times.append((Time.get_ticks_usec() - start) / 1000.0)
			ticks.append(Engine.get_physics_frames() - physics_before)
			if ClassDB.class_exists("Reach2DDebug"):
				allocations += ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - before
	scene.queue_free()
	await process_frame
	await process_frame
	return {"times": times, "ticks": Timing.stats(ticks)["mean"], "allocations": allocations, "frames": times.size()}


func _run() -> void:
	print("# Ragdoll2D, %d figures of 12 bones falling on a floor, %d physics frames per run (the first second left out), %s" % [figures, frames, Engine.get_version_info()["string"]])
	Timing.print_table_head("| setup (run) | frame ms (one physics tick + process) | physics ticks per frame | Ragdoll2D heap allocations |")
	var results := {"ragdoll": [], "by hand": []}
	for round in 2:
		for by_hand in [false, true]:
			var r: Dictionary = await run_setup(by_hand)
			var name := "RigidBody2D + PinJoint2D + GDScript copy" if by_hand else "Ragdoll2D"
			results["by hand" if by_hand else "ragdoll"].append(Timing.stats(r["times"])["median"])
			var alloc: String = "-" if by_hand else "%d over %d frames" % [r["allocations"], r["frames"]]
			print("| %s (%d) | %s | %.2f | %s |" % [name, round + 1, Timing.fmt_time(Timing.stats(r["times"])), r["ticks"], alloc])
	print("| median frame ms, Ragdoll2D / by hand | %.2f / %.2f | | |" % [Timing.stats(results["ragdoll"])["median"], Timing.stats(results["by hand"])["median"]])
	print("REACH2D_DONE")
	quit(0)
