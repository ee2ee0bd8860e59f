extends "res://common/demo.gd"
## N four-bone chains chasing their targets, solved either by Reach2D's FabrikChain2D or by Godot's built-in
## SkeletonModification2DFABRIK (one SkeletonModificationStack2D per Skeleton2D), with the cost of each measured
## around the solves alone: Reach2D nodes in manual mode, `solve()` in a loop; the built-in stacks with their
## automatic execution off, `skeleton.execute_modifications(delta, 0)` in a loop. Both are timed with
## Time.get_ticks_usec().

const Rig := preload("res://common/rig.gd")
const BONES := 4
const BONE_LENGTH := 11.0
const TOP := 150.0

var count := 200
var use_builtin := false
var chains: Array[Dictionary] = []
var pending_count := -1
var solve_usec := 0.0
## Mean solve cost per frame in microseconds, per solver, over the frames each ran (for the demo runner's line).
var totals := {"reach2d": 0.0, "builtin": 0.0}
var frames := {"reach2d": 0, "builtin": 0}
var builtin_error := 0.0
var builtin_error_frames := 0
var builtin_toggle: CheckBox


func demo_title() -> String:
	return "Stress: many chains, Reach2D vs built-in"


func demo_help() -> String:
	return "Every chain is a Skeleton2D with 4 Bone2D chasing its own target. Raise the count, and switch between Reach2D's FabrikChain2D and Godot's SkeletonModification2DFABRIK: the number is the time spent solving, per frame, measured around the solves alone."


func _demo_ready() -> void:
	add_slider("Chains", 50, 4000, 50, count, func(v: float) -> void: pending_count = int(v))
	builtin_toggle = add_toggle("Godot built-in FABRIK", false, func(on: bool) -> void: use_builtin = on)
	_build(count)


func _build(n: int) -> void:
	for chain in chains:
		(chain["skeleton"] as Node).queue_free()
		(chain["ik"] as Node).queue_free()
		(chain["target"] as Node).queue_free()
	chains.clear()
	count = n
	var area := Rect2(20, TOP, 920, 540 - TOP - 10)
	var cols := maxi(1, int(ceil(sqrt(n * area.size.x / area.size.y))))
	var rows := int(ceil(float(n) / cols))
	var cell := Vector2(area.size.x / cols, area.size.y / rows)
	var lengths := []
	lengths.resize(BONES)
	lengths.fill(BONE_LENGTH)
	var rotations := []
	rotations.resize(BONES)
	rotations.fill(0.15)
	for i in n:
		var origin := area.position + cell * Vector2(i % cols + 0.5, i / cols + 0.5)
		var skeleton := Skeleton2D.new()
		skeleton.name = "Skeleton%d" % i
		skeleton.position = origin
		add_child(skeleton)
		var bones := Rig.chain(skeleton, lengths, rotations, "B%d")
		var target := Node2D.new()
		target.name = "Target%d" % i
		add_child(target)
		var ik: Node2D = ClassDB.instantiate("FabrikChain2D")
		ik.name = "Fabrik%d" % i
		ik.root_bone = bones[0]
		ik.tip_bone = bones[-1]
		ik.target = target
		ik.update_mode = 2  # UPDATE_MANUAL: this script calls solve() inside its timed loop
		add_child(ik)
		# Godot's own FABRIK on the same bones: the last joint is the tip bone, whose end reaches the target.
		var fabrik := SkeletonModification2DFABRIK.new()
		fabrik.target_nodepath = skeleton.get_path_to(target)
		fabrik.fabrik_data_chain_length = BONES
		for j in BONES:
			fabrik.set_fabrik_joint_bone2d_node(j, skeleton.get_path_to(bones[j]))
			fabrik.set_fabrik_joint_bone_index(j, j)
		var stack := SkeletonModificationStack2D.new()
		stack.add_modification(fabrik)
		stack.enabled = true
		skeleton.set_modification_stack(stack)
		# Off: the stack runs only when this script calls execute_modifications().
		skeleton.set_process_internal(false)
		skeleton.set_physics_process_internal(false)
		chains.append({"skeleton": skeleton, "bones": bones, "target": target, "ik": ik, "origin": origin, "phase": i * 0.7})


func auto_aim(t: float) -> Vector2:
	return Vector2(480, 340) + Vector2(cos(t * 0.7), sin(t * 1.1)) * 200.0


func _demo_process(delta: float) -> void:
	if pending_count > 0 and pending_count != count:
		_build(pending_count)
		pending_count = -1
	if scripted:
		use_builtin = time > 2.5
		builtin_toggle.set_pressed_no_signal(use_builtin)
	# Targets circle their chains; with a real pointer, those near it lean toward it (kept within reach).
	var focus := aim()
	for chain in chains:
		var origin: Vector2 = chain["origin"]
		var p: Vector2 = origin + Vector2.from_angle(time * 1.7 + chain["phase"]) * 30.0
		var pull := focus - origin
		var near := 1.0 - smoothstep(60.0, 160.0, pull.length())
		if near > 0.0 and not scripted:
			# Lean toward the pointer, smoothly, staying within reach.
			var reach := BONES * BONE_LENGTH
			var toward := origin + pull.normalized() * clampf(pull.length(), reach * 0.55, reach * 0.9)
			p = p.lerp(toward, near)
		(chain["target"] as Node2D).global_position = p
	var start := Time.get_ticks_usec()
	if use_builtin:
		for chain in chains:
			(chain["skeleton"] as Skeleton2D).execute_modifications(delta, 0)
	else:
		for chain in chains:
			chain["ik"].solve()
	solve_usec = Time.get_ticks_usec() - start
	var key := "builtin" if use_builtin else "reach2d"
	totals[key] += solve_usec
	frames[key] += 1
	if use_builtin:
		for chain in chains:
			var bones: Array[Bone2D] = chain["bones"]
			builtin_error += _tip(bones[-1]).distance_to((chain["target"] as Node2D).global_position) / chains.size()
		builtin_error_frames += 1
	var fps := Engine.get_frames_per_second()
	set_status("%d chains, %s: solve %.2f ms/frame (%.2f us/chain)   %d fps" % [count, "Godot built-in" if use_builtin else "Reach2D", solve_usec / 1000.0, solve_usec / maxi(count, 1), fps])


func _tip(b: Bone2D) -> Vector2:
	return b.global_transform * (Vector2.from_angle(b.get_bone_angle()) * b.get_length())


func _draw() -> void:
	var segments := PackedVector2Array()
	var targets := PackedVector2Array()
	for chain in chains:
		var bones: Array[Bone2D] = chain["bones"]
		var previous: Vector2 = bones[0].global_position
		for j in range(1, BONES):
			var p := bones[j].global_position
			segments.append(previous)
			segments.append(p)
			previous = p
		segments.append(previous)
		segments.append(_tip(bones[-1]))
		targets.append((chain["target"] as Node2D).global_position)
	var colour := Color(1.0, 0.6, 0.35) if use_builtin else Color(0.45, 0.85, 1.0)
	if not segments.is_empty():
		draw_multiline(segments, colour, 2.0)
	for t in targets:
		draw_rect(Rect2(t - Vector2(1.5, 1.5), Vector2(3, 3)), Color(1, 1, 1, 0.7))


func get_ik_nodes() -> Array:
	if use_builtin:
		return []
	var nodes: Array = []
	for chain in chains:
		nodes.append(chain["ik"])
	return nodes


func summary() -> String:
	var r: float = totals["reach2d"] / maxi(frames["reach2d"], 1)
	var b: float = totals["builtin"] / maxi(frames["builtin"], 1)
	var text := "%d chains x %d bones: Reach2D %.0f us/frame (%d frames), built-in %.0f us/frame (%d frames)" % [count, BONES, r, frames["reach2d"], b, frames["builtin"]]
	if builtin_error_frames > 0:
		text += ", built-in mean tip error %.2f px" % (builtin_error / builtin_error_frames)
	return text
