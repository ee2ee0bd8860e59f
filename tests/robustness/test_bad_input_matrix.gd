extends "res://lib/test_case.gd"
## The bad-input matrix: every node class x every bad value a script can assign or pass (enums out of range, ints
## and wrong types where enums and nodes are expected, NaN/INF/1e30 floats, negative and huge iteration counts and
## bone indices, wrong-class nodes set through `set()`), plus the scene cases (freed and re-parented bones mid-run,
## a pole freed mid-run or at NaN, a tip not under the root, chains of 1 and 512 bones, zero/negative/1e-6 scales, many nodes on the same bones).
##
## Each case checks: no panic message, no NaN in any bone, the property keeps its last good value or takes a
## documented clamp, the last good pose is kept when the node refuses, and at most one message per distinct
## problem over 10 frames of solving. The matrix is printed at the end of the run (see tests/README.md).

const FRAMES := 10

## Floats a script can assign: each must be refused (one error) or clamped into the documented range.
const BAD_FLOATS := [NAN, INF, -INF, 1e30, -1e30, -1.0, 1e-45]
## Integers where an enum (update_mode) is expected.
const BAD_ENUMS := [7, -1, 3, 2147483647, -2147483648, 9223372036854775807]
## Iteration counts: must end in a sane range (a huge count must not hang a frame).
const BAD_COUNTS := [-1, 0, -2147483648, 2147483647, 1099511627776]
## Bone indices for set_angle_limits / clear_angle_limits / has_angle_limits: no allocation may be sized by them.
const BAD_INDICES := [-1, -2147483648, 2147483647, 1099511627776, 9223372036854775807, 512]

## Documented ranges of each float property after any assignment (inclusive), by property name.
## (Tolerance, softness, max_angle_step and max_angular_speed: finite and >= 0; 0 max_angle_step or
## max_angular_speed = unlimited. angle_offset: radians.)
const FLOAT_RANGES := {
	"weight": [0.0, 1.0],
	"tolerance": [0.0, 3.4e38],
	"softness": [0.0, 3.4e38],
	"max_angle_step": [0.0, 3.4e38],
	"angle_offset": [-PI, PI],
	"max_angular_speed": [0.0, 3.4e38],
	"target_rotation_weight": [0.0, 1.0],
	"stretch": [0.0, 3.4e38],
	"compress": [0.0, 0.99],
	"stiffness": [0.0, 3.4e38],
	"damping": [0.0, 3.4e38],
	"teleport_distance": [0.0, 3.4e38],
	"collision_radius": [0.0, 3.4e38],
}
## Iteration counts a node accepts; anything else is refused with one message.
const MAX_ITERATIONS := 1024
## What a case adds to the scene (`extras`: what its change added), in the order it is freed.
const CASE_NODES := ["extras", "ik", "target", "skeleton"]

var rows: Array[String] = []


## A working node of `klass` on a 3-bone chain (mirrored root, bone_angle != 0), solved once; in process mode.
func make_mirrored_case(klass: String) -> Dictionary:
	var skeleton := make_chain([40.0, 30.0, 20.0], [0.3, -0.6, 0.4])
	skeleton.scale = Vector2(-1, 1)
	var bones := bones_of(skeleton)
	bones[1].set_bone_angle(0.2)
	var target := make_target(skeleton.global_position + Vector2(-40, 45))
	var ik := make_ik(klass, skeleton, target, 0, Nodes.tip_index(klass, 3), 2)
	# Converged before the case starts, so a later change of pose can only come from the bad input.
	var start := rotations_of(bones)
	var solved := true
	for i in 8:
		solved = ik.solve() and solved
	expect(solved, "%s: the working rig solves" % klass)
	if Nodes.has_target(klass):
		expect(rotations_of(bones) != start, "%s: the working rig turned toward its target" % klass)
	ik.update_mode = 0
	return {"skeleton": skeleton, "bones": bones, "target": target, "ik": ik}


func live_bones(case: Dictionary) -> Array:
	var out := []
	for b in case["bones"]:
		if is_instance_valid(b):
			out.append(b)
	return out


## Runs FRAMES process frames; with `move_target` the target (while it lives) moves by (1.5, -1) px before each.
func run_frames(case: Dictionary, move_target := false) -> void:
	for i in FRAMES:
		if move_target and is_instance_valid(case["target"]):
			case["target"].position += Vector2(1.5, -1.0)
		await get_tree().process_frame


## The problem every case checks first: ["NaN in a bone"] when a live bone holds one, else none.
func nan_problems(case: Dictionary) -> PackedStringArray:
	var problems := PackedStringArray()
	if not all_finite(live_bones(case)):
		problems.append("NaN in a bone")
	return problems


## Messages grouped by text: the largest count of any one, and whether any mentions a panic.
func summarize(messages: PackedStringArray) -> Dictionary:
	var counts := {}
	var panics := 0
	for m in messages:
		counts[m] = counts.get(m, 0) + 1
		if "panic" in m.to_lower():
			panics += 1
	var worst := 0
	for m in counts:
		worst = maxi(worst, counts[m])
	return {"distinct": counts.size(), "worst": worst, "panics": panics, "first": messages[0] if messages.size() > 0 else ""}


## Records one matrix row; `problems` empty means the row passed.
func record(klass: String, label: String, problems: PackedStringArray, messages: PackedStringArray) -> void:
	var s := summarize(messages)
	if s["panics"] > 0:
		problems.append("%d panic message(s): %s" % [s["panics"], s["first"]])
	if s["worst"] > 1:
		problems.append("a message repeated %d times: %s" % [s["worst"], s["first"]])
	var verdict := "ok" if problems.is_empty() else "FAIL"
	rows.append("| %s | %s | %d | %s | %s |" % [klass, label, messages.size(), verdict, "; ".join(problems)])
	expect(problems.is_empty(), "%s %s: %s" % [klass, label, "; ".join(problems)])


## Assigns `value` to `property` through `set()` (as a script with an untyped reference does), runs FRAMES
## process frames, and checks the node, its bones and the log.
func property_case(klass: String, property: String, value: Variant, check: Callable, keeps_pose := true) -> void:
	var case := make_mirrored_case(klass)
	var ik: Node2D = case["ik"]
	await get_tree().process_frame
	error_log.take()
	var before: Variant = ik.get(property)
	var pose := rotations_of(live_bones(case))
	ik.set(property, value)
	var after: Variant = ik.get(property)
	await run_frames(case)
	var messages := error_log.take()
	var problems := nan_problems(case)
	var verdict: String = check.call(before, after, messages.size())
	if verdict != "":
		problems.append(verdict)
	# The target never moves: a refused value must leave the solved pose where it was. (A valid new tolerance
	# or step may legitimately refine it.)
	var now := rotations_of(live_bones(case))
	for i in (pose.size() if keeps_pose or after == before else 0):
		if absf(angle_difference(pose[i], now[i])) > 1e-3:
			problems.append("the pose moved (bone %d: %s -> %s)" % [i, pose[i], now[i]])
			break
	# A refused value leaves a working node: it still follows its target.
	if after == before and Nodes.has_target(klass) and problems.is_empty():
		case["target"].position += Vector2(6, -4)
		await get_tree().process_frame
		if rotations_of(live_bones(case)) == now:
			problems.append("the node stopped solving after refusing the value")
	record(klass, "%s = %s" % [property, var_to_str(value)], problems, messages)
	free_case(case, CASE_NODES)


## A float property: a value inside FLOAT_RANGES is taken as is, silently; anything else is refused with exactly one
## message and the last good value kept.
func float_check(property: String, value: float) -> Callable:
	return func(before: Variant, after: Variant, message_count: int) -> String:
		var r: Array = FLOAT_RANGES[property]
		if is_finite(value) and value >= r[0] and value <= r[1]:
			# Stored as a 32-bit float: compare at that precision.
			if absf(after - value) > 1e-6 * absf(value) + 1e-37 or message_count != 0:
				return "a valid %s became %s with %d messages" % [value, after, message_count]
			return ""
		if typeof(after) != TYPE_FLOAT or after != before:
			return "%s became %s (want it refused, %s kept)" % [property, after, before]
		if message_count != 1:
			return "%d messages (want one clear error)" % message_count
		return ""


## An enum given anything but 0, 1 or 2 (or a float Godot converts to one of them): refused with one message.
func enum_check(before: Variant, after: Variant, message_count: int) -> String:
	if typeof(after) != TYPE_INT or after < 0 or after > 2:
		return "update_mode became %s" % [after]
	if after != before and message_count == 0:
		return ""  # 1.5 -> 1: Godot's own float-to-int conversion of a valid value
	if after != before:
		return "update_mode changed to %s instead of keeping %s" % [after, before]
	if message_count != 1:
		return "%d messages (want one clear error)" % message_count
	return ""


## An iteration count outside 0..MAX_ITERATIONS: refused with one message (a huge count must not stall a frame).
func count_check(before: Variant, after: Variant, message_count: int) -> String:
	if typeof(after) != TYPE_INT or after < 0 or after > MAX_ITERATIONS:
		return "max_iterations became %s (outside 0..%d)" % [after, MAX_ITERATIONS]
	if after == before and message_count != 1:
		return "%d messages (want one clear error)" % message_count
	return ""


## A node slot given a value of the wrong class or type: refused with one message, the old node kept.
func node_check(before: Variant, after: Variant, message_count: int) -> String:
	if after != before:
		return "the property took %s" % [after]
	if message_count != 1:
		return "%d messages (want one clear error)" % message_count
	return ""


func test_enum_properties() -> void:
	for klass in Nodes.ALL:
		for value in BAD_ENUMS:
			await property_case(klass, "update_mode", value, enum_check)
		for value in ["physics", 1.5, null, Vector2.ONE]:
			await property_case(klass, "update_mode", value, enum_check)
	print_matrix("enum properties")


func test_float_properties() -> void:
	for klass in Nodes.ALL:
		for property in Nodes.CHECKED_FLOATS[klass]:
			var r: Array = FLOAT_RANGES[property]
			for value in BAD_FLOATS:
				var refused: bool = not (is_finite(value) and value >= r[0] and value <= r[1])
				await property_case(klass, property, value, float_check(property, value), refused)
	print_matrix("float properties")


func test_iteration_counts() -> void:
	for klass in Nodes.CHAINS:
		for value in BAD_COUNTS:
			await property_case(klass, "max_iterations", value, count_check)
	print_matrix("iteration counts")


func test_wrong_class_nodes() -> void:
	for klass in Nodes.ALL:
		for slot in Nodes.node_slots(klass):
			var wrong := [Node.new(), Sprite2D.new() if slot not in ["target", "pole"] else Node3D.new(), 5, "bone_0", Resource.new()]
			for value in wrong:
				await property_case(klass, slot, value, node_check)
			for value in wrong:
				if value is Node:
					value.free()
	print_matrix("wrong-class nodes")


## set_angle_limits / clear_angle_limits / has_angle_limits with bad indices and angles.
func test_angle_limit_arguments() -> void:
	for klass in Nodes.ALL:
		for index in BAD_INDICES:
			await method_case(klass, "set_angle_limits(%d, -0.5, 0.5)" % index, func(ik): ik.set_angle_limits(index, -0.5, 0.5), index == 512)
			await method_case(klass, "clear_angle_limits(%d)" % index, func(ik): ik.clear_angle_limits(index), index == 512)
			await method_case(klass, "has_angle_limits(%d)" % index, func(ik): expect(ik.has_angle_limits(index) == false, "%s has_angle_limits(%d) is false" % [klass, index]), true)
		for pair in [[NAN, 0.5], [-0.5, NAN], [-INF, INF], [1e30, 1e31], [-1e30, 1e30], [0.5, -0.5]]:
			await method_case(klass, "set_angle_limits(0, %s, %s)" % pair, func(ik): ik.set_angle_limits(0, pair[0], pair[1]), false)
	print_matrix("angle-limit arguments")


## Calls `action` on a working node, runs FRAMES frames, and checks the log, the bones and the pose. A call that
## is quietly valid (`silent_ok`, e.g. clearing a bone index past the chain's end) may print nothing.
func method_case(klass: String, label: String, action: Callable, silent_ok: bool) -> void:
	var case := make_mirrored_case(klass)
	var ik: Node2D = case["ik"]
	await get_tree().process_frame
	error_log.take()
	var pose := rotations_of(live_bones(case))
	var memory_before := OS.get_static_memory_usage()
	action.call(ik)
	var grown := OS.get_static_memory_usage() - memory_before
	await run_frames(case)
	var messages := error_log.take()
	var problems := nan_problems(case)
	if grown > 1 << 20:
		problems.append("the call allocated %d bytes" % grown)
	if messages.size() == 0 and not silent_ok:
		problems.append("no message for a bad argument")
	var now := rotations_of(live_bones(case))
	for i in pose.size():
		if absf(angle_difference(pose[i], now[i])) > 1e-3:
			problems.append("the pose moved")
			break
	record(klass, label, problems, messages)
	free_case(case, CASE_NODES)


## Scene cases: broken and extreme rigs. Each runs FRAMES frames in process mode after the change.
func scene_case(klass: String, label: String, case: Dictionary, change: Callable, expect_refusal: bool) -> void:
	var ik: Node2D = case["ik"]
	await get_tree().process_frame
	error_log.take()
	change.call(case)
	var pose := rotations_of(live_bones(case))
	await run_frames(case, true)
	var messages := error_log.take()
	var problems := nan_problems(case)
	if expect_refusal:
		if rotations_of(live_bones(case)) != pose:
			problems.append("a refused setup still moved the bones")
		if ik.get_setup_warning() == "":
			problems.append("no setup warning")
		if messages.size() == 0:
			problems.append("no message")
	record(klass, label, problems, messages)
	free_case(case, CASE_NODES)


func free_middle_bone(c: Dictionary) -> void:
	c["bones"][1].free()


func reparent_second_bone(c: Dictionary) -> void:
	var bone: Bone2D = c["bones"][1]
	bone.reparent(c["skeleton"])


func tip_under_other_skeleton(c: Dictionary) -> void:
	var other := make_chain([10.0, 10.0], [], Vector2.ONE, Vector2(50, 50))
	c["extras"] = [other]
	c["ik"].tip_bone = bones_of(other)[1]


func scale_skeleton(c: Dictionary, s: Vector2) -> void:
	c["skeleton"].scale = s


func scale_root_bone(c: Dictionary, s: Vector2) -> void:
	c["bones"][0].scale = s


func add_seven_more_nodes(c: Dictionary) -> void:
	var klass: String = c["ik"].get_class()
	var extras := []
	for i in 7:
		var extra: Node2D = ClassDB.instantiate(klass)
		Nodes.attach(extra, c["bones"], c["target"], 0, Nodes.tip_index(klass, 3))
		c["ik"].add_sibling(extra)
		extras.append(extra)
	c["extras"] = extras


## A pole the node solved with, then freed: the node refuses (one message) and keeps its pose.
func free_pole(c: Dictionary) -> void:
	var pole := Node2D.new()
	c["skeleton"].add_child(pole)
	pole.position = Vector2(0, -60)
	c["ik"].pole = pole
	c["ik"].solve()
	pole.free()


## A pole at a NaN position: refused like a NaN target.
func nan_pole(c: Dictionary) -> void:
	var pole := Node2D.new()
	c["skeleton"].add_child(pole)
	pole.position = Vector2(NAN, 1)
	c["ik"].pole = pole


func no_change(_c: Dictionary) -> void:
	pass


func test_scene_cases() -> void:
	for klass in Nodes.ALL:
		var chain: bool = not Nodes.single_bone(klass)
		await scene_case(klass, "middle bone freed mid-run", make_mirrored_case(klass), free_middle_bone, chain)
		await scene_case(klass, "second bone re-parented to the skeleton", make_mirrored_case(klass), reparent_second_bone, chain)
		if chain:
			await scene_case(klass, "tip not under root", make_mirrored_case(klass), tip_under_other_skeleton, true)
		for s in [Vector2.ZERO, Vector2(-1, -1), Vector2(1e-6, 1e-6), Vector2(0, 1), Vector2(-1e-6, 1)]:
			await scene_case(klass, "skeleton scale %s" % s, make_mirrored_case(klass), scale_skeleton.bind(s), false)
			await scene_case(klass, "root bone scale %s" % s, make_mirrored_case(klass), scale_root_bone.bind(s), false)
		await scene_case(klass, "8 nodes on the same bones", make_mirrored_case(klass), add_seven_more_nodes, false)
		if Nodes.has_pole(klass):
			await scene_case(klass, "pole freed mid-run", make_mirrored_case(klass), free_pole, true)
			await scene_case(klass, "pole at NaN", make_mirrored_case(klass), nan_pole, true)
	# Chains of 1 and 512 bones.
	for n in [1, 512]:
		for klass in Nodes.ALL.filter(func(k): return k != "TwoBoneIk2D"):
			var lengths := []
			for i in n:
				lengths.append(4.0)
			var skeleton := make_chain(lengths, [0.01])
			var target := make_target(skeleton.global_position + Vector2(n * 2.0, n * 1.0 + 5.0))
			var ik := make_ik(klass, skeleton, target, 0, n - 1, 0)
			var case := {"skeleton": skeleton, "bones": bones_of(skeleton), "target": target, "ik": ik}
			await scene_case(klass, "chain of %d bones" % n, case, no_change, false)
	print_matrix("scene cases")


func print_matrix(title: String) -> void:
	print("Bad-input matrix: %s (%d cases, %d failing)" % [title, rows.size(), rows.filter(func(r): return "| FAIL |" in r).size()])
	print("| class | case | messages | result | problems |")
	print("|---|---|---|---|---|")
	for row in rows:
		print(row)
