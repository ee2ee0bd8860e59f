extends "res://lib/test_case.gd"
## Converting a built-in SkeletonModificationStack2D into Reach2D nodes (addons/reach2d/editor/convert.gd): each
## kind of modification, with several limit and bend settings, gives the built-in's pose on targets where the
## built-in works (unmirrored); what cannot be carried over is reported; the converted scene saves and reloads.

const Convert := preload("res://addons/reach2d/editor/convert.gd")
const SAVED := "user://reach2d_convert_test.tscn"


## A scene root with a skeleton (bone angles != 0), a target, and a stack holding `modification` configured by
## `configure(modification, skeleton)` once the stack is set up. Returns its parts.
func make_scene(modification: SkeletonModification2D, configure: Callable, at: Vector2, bone_count := 3, angles := [0.3, -0.5, 0.4, 0.2]) -> Dictionary:
	var root := Node2D.new()
	root.name = "Scene%d" % get_child_count()
	add_child(root)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = Vector2(400, 300)
	root.add_child(skeleton)
	skeleton.owner = root
	# Bone angles 0.15, -0.3, 0.45, -0.6, each bone's end where its child starts, as a rig drawn in the editor has it.
	var lengths := [60.0, 50.0, 40.0, 30.0].slice(0, bone_count)
	var bone_angles := []
	for i in bone_count:
		bone_angles.append(0.15 * (i + 1) * (-1 if i % 2 else 1))
	var bones := Rig.chain(skeleton, lengths, angles, "bone_%d", bone_angles)
	for b in bones:
		b.owner = root
	var tip := Node2D.new()
	tip.name = "tip"
	tip.position = Vector2.from_angle(bones[-1].get_bone_angle()) * lengths[-1]
	bones[-1].add_child(tip)
	tip.owner = root
	var target := Node2D.new()
	target.name = "Target"
	root.add_child(target)
	target.owner = root
	target.global_position = at
	var stack := SkeletonModificationStack2D.new()
	skeleton.set_modification_stack(stack)
	stack.add_modification(modification)
	stack.enabled = true
	configure.call(modification, skeleton)
	return {"root": root, "skeleton": skeleton, "bones": bones, "target": target, "stack": stack}


## Runs the built-in stack `times` times from the current pose; returns the rotations it leaves.
func run_builtin(case: Dictionary, times: int) -> PackedFloat32Array:
	for i in times:
		case["skeleton"].execute_modifications(1.0 / 60.0, 0)
	return rotations_of(case["bones"])


## Puts the pose back to `start` (as the scene is drawn), converts, and solves the new node once; returns
## [node, rotations, notes].
func convert_and_solve(case: Dictionary, start: PackedFloat32Array) -> Array:
	for i in start.size():
		case["bones"][i].rotation = start[i]
	var result := Convert.convert_modifications(case["skeleton"])
	if not expect(result["ok"] and result["nodes"].size() == 1, "one node created (%s)" % [result]):
		return [null, PackedFloat32Array(), result["notes"]]
	for i in start.size():
		case["bones"][i].rotation = start[i]
	var node: Node2D = result["nodes"][0]
	node.update_mode = 2
	node.solve()
	return [node, rotations_of(case["bones"]), result["notes"]]


func test_look_at_with_limits() -> void:
	# [min, max, invert, target]: free, a positive arc, a negative bound with invert (the built-in's way to allow
	# [-1, 0.5]), and a target outside the arc (clamped to the nearest bound).
	var cases := [[false, 0.0, 0.0, false, Vector2(500, 380)], [true, 0.2, 1.2, false, Vector2(450, 400)],
		[true, -1.0, 0.5, true, Vector2(480, 280)], [true, 0.2, 1.2, false, Vector2(300, 200)]]
	for c in cases:
		var look := SkeletonModification2DLookAt.new()
		var case := make_scene(look, func(m, s):
			m.set_bone2d_node(NodePath("bone_0"))
			m.set_target_node(s.get_path_to(s.get_parent().get_node("Target")))
			m.set_enable_constraint(c[0])
			m.set_constraint_angle_min(c[1])
			m.set_constraint_angle_max(c[2])
			m.set_constraint_angle_invert(c[3]), c[4], 1)
		var start := rotations_of(case["bones"])
		var builtin := run_builtin(case, 1)
		var out := convert_and_solve(case, start)
		if out[0] == null:
			continue
		var worst := largest_rotation_difference(builtin, out[1])
		expect(worst < 1e-3, "look-at %s: the converted node gives the built-in's rotation (built-in %s, Reach2D %s)" % [c, builtin, out[1]])
		expect(out[0].has_angle_limits(0) == c[0], "look-at %s: the limit is carried over exactly when enabled" % [c])
		expect(not case["stack"].get_modification(0).enabled, "look-at %s: the built-in modification is disabled" % [c])
		print("look-at %s: worst %s rad" % [c, worst])
		case["root"].free()


## The built-in bends to a fixed side; TwoBoneIk2D bends the way the limb is drawn. The converted node must give
## the built-in's pose for a leg drawn with the knee either way or straight, on a skeleton mirrored or not, with
## flip_bend_direction off and on (before the fix a leg drawn with the knee forward bent backward, 47-85 px off).
func test_two_bone_keeps_the_builtin_knee() -> void:
	# Local rotations of the thigh and shin: bent one way, the other way, straight (0.45 - 0.3 = 0.15, the bone
	# angles' difference).
	var drawings := {"bent +": [0.3, -0.5], "bent -": [-0.3, 0.5], "straight": [0.2, 0.45]}
	var worst := 0.0
	var compared := 0
	for drawn in drawings:
		for mirrored in [false, true]:
			for flip in [false, true]:
				for at in [Vector2(470, 360), Vector2(420, 230), Vector2(360, 380), Vector2(300, 300)]:
					var target_at: Vector2 = Vector2(800.0 - at.x, at.y) if mirrored else at
					var two := SkeletonModification2DTwoBoneIK.new()
					var case := make_scene(two, func(m, s):
						m.set_joint_one_bone2d_node(NodePath("bone_0"))
						m.set_joint_two_bone2d_node(NodePath("bone_0/bone_1"))
						m.set_flip_bend_direction(flip)
						m.set_target_node(s.get_path_to(s.get_parent().get_node("Target"))), target_at, 2, drawings[drawn])
					if mirrored:
						case["skeleton"].scale = Vector2(-1, 1)
					var label := "%s%s flip=%s target %s" % [drawn, " mirrored" if mirrored else "", flip, at]
					var bones: Array = case["bones"]
					var start := rotations_of(bones)
					run_builtin(case, 1)
					var builtin_knee: Vector2 = bones[1].global_position
					var builtin_end := bone_end(bones[1])
					var out := convert_and_solve(case, start)
					if out[0] == null:
						continue
					var knee_error: float = bones[1].global_position.distance_to(builtin_knee)
					var end_error := bone_end(bones[1]).distance_to(builtin_end)
					worst = maxf(worst, maxf(knee_error, end_error))
					compared += 1
					expect(knee_error < 0.01 and end_error < 0.01, "two-bone %s: the converted node's knee and foot are the built-in's (knee %.3f px, foot %.3f px off; flip_bend %s)" % [label, knee_error, end_error, out[0].flip_bend])
					case["root"].free()
	print("two-bone: %d cases, the converted knee and foot within %.5f px of the built-in's" % [compared, worst])
	expect(compared == 3 * 2 * 2 * 4, "every case was compared (%d)" % compared)


## The built-in LookAt's additional_rotation (radians from its getter) becomes LookAt2D.angle_offset: the converted
## head faces the target as the built-in's does, on a skeleton mirrored or not, with and without a limit.
func test_look_at_additional_rotation_is_carried_over() -> void:
	var worst := 0.0
	for extra in [0.0, PI / 2, -0.7, 2.5]:
		for mirrored in [false, true]:
			for at in [Vector2(500, 380), Vector2(330, 220)]:
				var target_at: Vector2 = Vector2(800.0 - at.x, at.y) if mirrored else at
				var look := SkeletonModification2DLookAt.new()
				var case := make_scene(look, func(m, s):
					m.set_bone2d_node(NodePath("bone_0"))
					m.set_target_node(s.get_path_to(s.get_parent().get_node("Target")))
					m.set_additional_rotation(extra), target_at, 1)
				if mirrored:
					case["skeleton"].scale = Vector2(-1, 1)
				var start := rotations_of(case["bones"])
				var builtin := run_builtin(case, 1)
				var out := convert_and_solve(case, start)
				if out[0] == null:
					continue
				var label := "additional_rotation %.2f%s target %s" % [extra, " mirrored" if mirrored else "", at]
				expect(not "additional_rotation" in "\n".join(out[2]), "%s: not reported as dropped (%s)" % [label, out[2]])
				var error := largest_rotation_difference(builtin, out[1])
				worst = maxf(worst, error)
				expect(error < 1e-3, "%s: the converted head turns like the built-in's (built-in %s, Reach2D %s, angle_offset %.3f)" % [label, builtin, out[1], out[0].angle_offset])
				case["root"].free()
	print("look-at additional_rotation: worst %s rad" % worst)


## FABRIK and CCD chains are redundant (3 bones for a 2D point): the built-in and Reach2D may settle on different
## bends, so they are compared by what both promise: the end on the target, and every carried limit holding.
func test_chains_reach_like_the_builtin() -> void:
	for kind in ["fabrik", "ccdik", "ccdik_limited"]:
		var modification: SkeletonModification2D = SkeletonModification2DFABRIK.new() if kind == "fabrik" else SkeletonModification2DCCDIK.new()
		var case := make_scene(modification, func(m, s):
			m.set_target_node(s.get_path_to(s.get_parent().get_node("Target")))
			if kind == "fabrik":
				m.set_fabrik_data_chain_length(3)
				for j in 3:
					m.set_fabrik_joint_bone2d_node(j, NodePath("/".join(["bone_0", "bone_1", "bone_2"].slice(0, j + 1))))
			else:
				m.set_tip_node(NodePath("bone_0/bone_1/bone_2/tip"))
				m.set_ccdik_data_chain_length(3)
				for j in 3:
					m.set_ccdik_joint_bone2d_node(j, NodePath("/".join(["bone_0", "bone_1", "bone_2"].slice(0, j + 1))))
					if kind == "ccdik_limited":
						m.set_ccdik_joint_enable_constraint(j, true)
						m.set_ccdik_joint_constraint_angle_min(j, -1.2 if j > 0 else 0.0)
						m.set_ccdik_joint_constraint_angle_max(j, 1.2)
						m.set_ccdik_joint_constraint_angle_invert(j, j > 0), Vector2(480, 380))
		var start := rotations_of(case["bones"])
		run_builtin(case, 200)
		var bones: Array = case["bones"]
		var target: Vector2 = case["target"].global_position
		var builtin_miss := bone_end(bones[-1]).distance_to(target)
		var out := convert_and_solve(case, start)
		if out[0] == null:
			continue
		var node: Node2D = out[0]
		var miss := bone_end(bones[-1]).distance_to(target)
		expect(builtin_miss < 1.0, "%s: the built-in reaches this target (miss %s px)" % [kind, builtin_miss])
		expect(miss <= builtin_miss + 0.5, "%s: the converted node reaches it too (miss %s px, built-in %s px)" % [kind, miss, builtin_miss])
		expect(node.root_bone == bones[0] and node.tip_bone == bones[-1], "%s: root_bone and tip_bone from the joints" % kind)
		if kind == "ccdik_limited":
			# Root [0, 1.2]; the others [-1.2, 1.2] by the inverted built-in bounds.
			for j in 3:
				expect(node.has_angle_limits(j), "%s: joint %d's limit is carried over" % [kind, j])
				var low := 0.0 if j == 0 else -1.2
				expect(bones[j].rotation >= low - 1e-4 and bones[j].rotation <= 1.2 + 1e-4, "%s: bone %d holds its limit (%s)" % [kind, j, bones[j].rotation])
		print("%s: built-in miss %s px, Reach2D miss %s px, notes %s" % [kind, builtin_miss, miss, out[2]])
		case["root"].free()


## The built-in FABRIK's use_target_rotation acts only on its last joint: there it becomes match_target_rotation; on
## an earlier joint it is reported and dropped. The built-in turns the tip bone's drawn direction (its x axis turned
## by bone_angle) to the target's rotation, match_target_rotation its x axis: the converter has the new node reach for
## a child of the target turned by -bone_angle, so the converted pose is the built-in's (it was 18 px off before).
func test_fabrik_target_rotation_is_carried_over() -> void:
	var case := make_scene(SkeletonModification2DFABRIK.new(), func(m, s):
		m.set_target_node(s.get_path_to(s.get_parent().get_node("Target")))
		m.set_fabrik_data_chain_length(3)
		for j in 3:
			m.set_fabrik_joint_bone2d_node(j, NodePath("/".join(["bone_0", "bone_1", "bone_2"].slice(0, j + 1))))
		m.set_fabrik_joint_use_target_rotation(0, true)
		m.set_fabrik_joint_use_target_rotation(2, true), Vector2(470, 370))
	case["target"].rotation = 0.6
	var bones: Array = case["bones"]
	var start := rotations_of(bones)
	run_builtin(case, 60)
	var builtin_joints := joints_of(bones)
	var out := convert_and_solve(case, start)
	if out[0] == null:
		return
	var node: Node2D = out[0]
	var notes := "\n".join(out[2])
	var tip: Bone2D = bones[-1]
	expect(node.match_target_rotation, "the last joint's use_target_rotation becomes match_target_rotation")
	expect("joint 0's use_target_rotation" in notes, "an earlier joint's use_target_rotation is reported (%s)" % notes)
	expect("turned by -bone_angle" in notes, "the turned target is reported (%s)" % notes)
	expect(node.target != null and node.target.get_parent() == case["target"], "the new node reaches for a child of the target (%s)" % [node.target])
	# The tip's drawn direction, as the built-in turns it, takes the target's rotation.
	var drawn := tip.global_transform.x.rotated(tip.get_bone_angle())
	var direction_error := absf(drawn.angle_to(case["target"].global_transform.x))
	var miss := bone_end(tip).distance_to(case["target"].global_position)
	var pose := largest_distance(joints_of(bones), builtin_joints)
	expect(direction_error < 1e-3, "the tip bone's drawn direction takes the target's rotation (%s rad off)" % direction_error)
	expect(miss <= node.tolerance + 1e-3, "the tip still reaches the target (%s px)" % miss)
	expect(pose < 1.0, "the converted pose is the built-in's (joints %s px apart)" % pose)
	print("fabrik use_target_rotation: tip direction %s rad off, end %s px off, joints %s px from the built-in's" % [direction_error, miss, pose])
	case["root"].free()


func test_limit_mapping_follows_the_builtin_clamp() -> void:
	# Godot maps angle and bounds to [0, TAU) and orders the bounds: a negative bound selects the other arc.
	expect(Convert.limit_from_constraint(0.2, 1.2, false) == [0.2, 1.2], "a positive arc maps as it is")
	var inverted := Convert.limit_from_constraint(-1.0, 0.5, true)
	expect(inverted.size() == 2 and absf(inverted[0] + 1.0) < 1e-5 and absf(inverted[1] - 0.5) < 1e-5, "[-1, 0.5] inverted allows [-1, 0.5] (%s)" % [inverted])
	expect(Convert.limit_from_constraint(-1.0, 0.5, false).is_empty(), "[-1, 0.5] not inverted allows [0.5, TAU - 1], across PI: refused")
	var across := Convert.limit_from_constraint(0.2, 1.2, true)
	expect(across.is_empty(), "[0.2, 1.2] inverted allows an arc across PI: refused (%s)" % [across])


func node_has_limit(result: Dictionary, index: int) -> bool:
	return not result["nodes"].is_empty() and result["nodes"][0].has_angle_limits(index)


func test_reports_what_is_not_carried_over_and_saves() -> void:
	var ccd := SkeletonModification2DCCDIK.new()
	var case := make_scene(ccd, func(m, s):
		m.set_target_node(s.get_path_to(s.get_parent().get_node("Target")))
		m.set_tip_node(NodePath("bone_0/bone_1/bone_2/tip"))
		m.set_ccdik_data_chain_length(3)
		for j in 3:
			m.set_ccdik_joint_bone2d_node(j, NodePath("/".join(["bone_0", "bone_1", "bone_2"].slice(0, j + 1))))
		m.set_ccdik_joint_rotate_from_joint(1, true)
		m.set_ccdik_joint_enable_constraint(0, true)
		m.set("joint_data/0/constraint_in_localspace", false)
		m.set_ccdik_joint_enable_constraint(2, true)
		m.set_ccdik_joint_constraint_angle_min(2, -1.0)
		m.set_ccdik_joint_constraint_angle_max(2, 0.5), Vector2(470, 370))
	case["stack"].add_modification(SkeletonModification2DJiggle.new())
	var result := Convert.convert_modifications(case["skeleton"])
	var notes := "\n".join(result["notes"])
	expect(result["ok"] and result["nodes"].size() == 1, "the CCDIK is converted (%s)" % [result])
	expect("rotate_from_joint" in notes, "rotate_from_joint is reported (%s)" % notes)
	expect("across PI" in notes, "an unrepresentable constraint is reported (%s)" % notes)
	expect("joint 0: a global-space constraint" in notes, "a global-space constraint is reported (%s)" % notes)
	expect(not node_has_limit(result, 0), "the global-space constraint is not applied")
	expect("Jiggle" in notes, "the jiggle modification is reported (%s)" % notes)
	expect(case["stack"].get_modification(1).enabled, "the jiggle stays enabled")
	if result["nodes"].is_empty():
		return
	var node: Node2D = result["nodes"][0]
	expect(not node.has_angle_limits(2), "the unrepresentable limit is not applied")
	# The converted scene saves and reloads with its nodes, their bones and the disabled modification.
	var packed := PackedScene.new()
	expect(packed.pack(case["root"]) == OK, "the converted scene packs")
	expect(ResourceSaver.save(packed, SAVED) == OK, "the converted scene saves")
	var loaded: Node = (load(SAVED) as PackedScene).instantiate()
	add_child(loaded)
	var copy := loaded.get_node_or_null(NodePath(String(case["root"].get_path_to(node))))
	expect(copy != null and copy.get_class() == "CcdChain2D", "the reloaded scene has the CcdChain2D")
	if copy != null:
		expect(copy.root_bone == loaded.get_node("Skeleton/bone_0") and copy.tip_bone == loaded.get_node("Skeleton/bone_0/bone_1/bone_2"), "its bones reload")
		expect(copy.target == loaded.get_node("Target"), "its target reloads")
		copy.update_mode = 2
		expect(copy.solve(), "the reloaded node solves (%s)" % copy.get_setup_warning())
	var stack: SkeletonModificationStack2D = loaded.get_node("Skeleton").get_modification_stack()
	expect(stack != null and not stack.get_modification(0).enabled, "the built-in CCDIK reloads disabled")
	loaded.free()
	case["root"].free()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(SAVED))


## A missing, freed or wrong-class skeleton is refused with a note, not a script error.
func test_refuses_what_is_not_a_skeleton() -> void:
	var freed := Skeleton2D.new()
	freed.free()
	var sprite := Sprite2D.new()
	for c in [["null", null], ["freed", freed], ["a Sprite2D", sprite], ["a number", 5]]:
		var result := Convert.convert_modifications(c[1])
		expect(not result["ok"] and result["nodes"].is_empty() and "Skeleton2D" in "\n".join(result["notes"]), "%s: refused with a note (%s)" % [c[0], result])
	sprite.free()


## Audit of every setting a converted FABRIK or CCDIK modification carries (issue 21 item 1, test_audit_chain_settings): the built-in's pose
## before conversion against Reach2D's after, on a three-bone chain drawn bent one way and the other, unmirrored and
## mirrored (the skeleton with scale.x = -1, the target mirrored), toward three targets.
##
## What it holds: the converted FABRIK gives the built-in's pose wherever the built-in works (unmirrored), with
## use_target_rotation too (18 px apart before the converter turned the target by the tip's bone_angle); the
## converted CCD reaches wherever the built-in reaches, but its middle joints settle elsewhere (the built-in sweeps
## root to tip) and the converter says so; every setting that is not carried is reported.


func ccd_settings() -> Array:
	return [
		["plain", func(_m, _n): pass, []],
		["local limits", func(m, n):
			for j in n:
				m.set_ccdik_joint_enable_constraint(j, true)
				m.set_ccdik_joint_constraint_angle_min(j, 0.0 if j == 0 else -1.2)
				m.set_ccdik_joint_constraint_angle_max(j, 1.2)
				m.set_ccdik_joint_constraint_angle_invert(j, j > 0), []],
		["global limits", func(m, n):
			for j in n:
				m.set_ccdik_joint_enable_constraint(j, true)
				m.set("joint_data/%d/constraint_in_localspace" % j, false)
				m.set_ccdik_joint_constraint_angle_min(j, -1.0)
				m.set_ccdik_joint_constraint_angle_max(j, 1.0), ["global-space constraint"]],
		["rotate_from_joint", func(m, n):
			for j in n:
				m.set_ccdik_joint_rotate_from_joint(j, true), ["rotate_from_joint"]],
	]


func fabrik_settings() -> Array:
	return [
		["plain", func(_m, _n): pass, []],
		["magnet", func(m, n):
			for j in n:
				m.set_fabrik_joint_magnet_position(j, Vector2(0, 30)), ["magnet_position"]],
		["use_target_rotation", func(m, n):
			m.set_fabrik_joint_use_target_rotation(n - 1, true), ["turned by -bone_angle"]],
	]


func make_chain_case(kind: String, configure: Callable, drawn: Array, mirrored: bool, at: Vector2) -> Dictionary:
	var modification: SkeletonModification2D = SkeletonModification2DFABRIK.new() if kind == "fabrik" else SkeletonModification2DCCDIK.new()
	var target_at: Vector2 = Vector2(800.0 - at.x, at.y) if mirrored else at
	var case := make_scene(modification, func(m, s):
		m.set_target_node(s.get_path_to(s.get_parent().get_node("Target")))
		var paths := ["bone_0", "bone_0/bone_1", "bone_0/bone_1/bone_2"]
		if kind == "fabrik":
			m.set_fabrik_data_chain_length(3)
			for j in 3:
				m.set_fabrik_joint_bone2d_node(j, NodePath(paths[j]))
		else:
			m.set_tip_node(NodePath("bone_0/bone_1/bone_2/tip"))
			m.set_ccdik_data_chain_length(3)
			for j in 3:
				m.set_ccdik_joint_bone2d_node(j, NodePath(paths[j]))
		configure.call(m, 3), target_at, 3, drawn)
	if mirrored:
		case["skeleton"].scale = Vector2(-1, 1)
	case["target"].rotation = 0.6
	return case


func test_audit_chain_settings() -> void:
	var drawings := {"bent +": [0.3, -0.5, 0.4], "bent -": [-0.3, 0.5, -0.4]}
	var unmirrored_miss := {}
	for kind in ["ccdik", "fabrik"]:
		for setting in (ccd_settings() if kind == "ccdik" else fabrik_settings()):
			var worst_pose := 0.0
			for drawn in drawings:
				for mirrored in [false, true]:
					var line := ""
					for at in [Vector2(480, 380), Vector2(430, 220), Vector2(500, 300)]:
						var case := make_chain_case(kind, setting[1], drawings[drawn], mirrored, at)
						var bones: Array = case["bones"]
						var start := rotations_of(bones)
						# Under a mirrored skeleton the built-in also leaves a bone's scale flipped ((1, -1) on the
						# root bone): the whole drawn transform is put back before converting, not only the rotations.
						var drawn_transforms := bones.map(func(b): return b.transform)
						run_builtin(case, 60)
						var builtin_joints := joints_of(bones)
						var target: Vector2 = case["target"].global_position
						var builtin_miss: float = builtin_joints[-1].distance_to(target)
						for i in bones.size():
							bones[i].transform = drawn_transforms[i]
						var out := convert_and_solve(case, start)
						if out[0] == null:
							case["root"].free()
							continue
						var label := "%s %s, %s%s, target %s" % [kind, setting[0], drawn, " mirrored" if mirrored else "", at]
						var key := "%s %s %s %s" % [kind, setting[0], drawn, at]
						var notes := "\n".join(out[2])
						for word in setting[2]:
							expect(word in notes, "%s: the converter reports %s (%s)" % [label, word, notes])
						if kind == "ccdik":
							expect("root to the tip" in notes, "%s: the converter says the middle joints may settle elsewhere (%s)" % [label, notes])
						var pose := largest_distance(joints_of(bones), builtin_joints)
						var miss := bone_end(bones[-1]).distance_to(target)
						if not mirrored:
							unmirrored_miss[key] = miss
						if builtin_miss < 0.5 and setting[2].is_empty() or setting[0] == "use_target_rotation":
							if not mirrored:
								# Reaches wherever the built-in reaches (the built-in FABRIK does not work mirrored).
								expect(builtin_miss >= 0.5 or miss <= out[0].tolerance + 1e-3, "%s: reaches where the built-in reaches (%.2f px)" % [label, miss])
						if mirrored and kind == "ccdik" and unmirrored_miss.has(key):
							# The mirrored rig is the mirror image of the unmirrored one, so it reaches as far.
							expect(absf(miss - unmirrored_miss[key]) < 0.01, "%s: reaches as the unmirrored rig does (%.3f px, unmirrored %.3f px)" % [label, miss, unmirrored_miss[key]])
						if kind == "fabrik" and not mirrored and builtin_miss < 0.5 and setting[0] != "magnet":
							worst_pose = maxf(worst_pose, pose)
							expect(pose < 1.0, "%s: the converted pose is the built-in's (joints %.2f px apart)" % [label, pose])
						line += " | built-in miss %.2f, Reach2D miss %.2f, joints %.1f px apart" % [builtin_miss, miss, pose]
						case["root"].free()
					print("AUDIT %s %s, %s%s:%s" % [kind, setting[0], drawn, " mirrored" if mirrored else "", line])
			if kind == "fabrik" and setting[0] != "magnet":
				print("AUDIT %s %s: unmirrored, the converted joints within %.2f px of the built-in's" % [kind, setting[0], worst_pose])


## Saves `root` as the editor saves a scene (every node told EDITOR_PRE_SAVE first, so a Bone2D whose stack ran holds
## its drawn transform while the scene is packed, then EDITOR_POST_SAVE) and opens the file again under this test
## node. Returns the reopened root.
func save_and_reopen(root: Node) -> Node:
	root.propagate_notification(NOTIFICATION_EDITOR_PRE_SAVE)
	var packed := PackedScene.new()
	var packed_ok := packed.pack(root) == OK
	root.propagate_notification(NOTIFICATION_EDITOR_POST_SAVE)
	expect(packed_ok and ResourceSaver.save(packed, SAVED) == OK, "the converted scene saves")
	var reopened: Node = (ResourceLoader.load(SAVED, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(SAVED))
	add_child(reopened)
	return reopened


## Issue 31 item 2: in the editor the built-in stack runs all the time, so the bones show its pose while each keeps
## the drawn one aside, and the drawn one is what a saved and reopened scene holds. The converter must choose
## flip_bend from the drawn pose, whether it converts before or after the built-in ran, and must not write the
## built-in's pose over the drawn one. Before the fix, converting after the built-in ran read the side from the
## built-in's pose (the knee then bent the other way than the built-in's wherever the drawn side differs from it) and
## its probe left the built-in's pose in the bones' drawn copy, so the scene saved it.
func test_two_bone_side_is_read_from_the_drawn_pose_in_either_order() -> void:
	var drawings := {"bent +": [0.3, -0.5], "bent -": [-0.3, 0.5], "straight": [0.2, 0.45]}
	var worst := 0.0
	var compared := 0
	for drawn in drawings:
		for mirrored in [false, true]:
			for flip in [false, true]:
				for order in ["convert first", "built-in first"]:
					for at in [Vector2(470, 360), Vector2(360, 380)]:
						var target_at: Vector2 = Vector2(800.0 - at.x, at.y) if mirrored else at
						var case := make_scene(SkeletonModification2DTwoBoneIK.new(), func(m, s):
							m.set_joint_one_bone2d_node(NodePath("bone_0"))
							m.set_joint_two_bone2d_node(NodePath("bone_0/bone_1"))
							m.set_flip_bend_direction(flip)
							m.set_target_node(s.get_path_to(s.get_parent().get_node("Target"))), target_at, 2, drawings[drawn])
						if mirrored:
							case["skeleton"].scale = Vector2(-1, 1)
						var label := "%s%s flip=%s, %s, target %s" % [drawn, " mirrored" if mirrored else "", flip, order, at]
						var bones: Array = case["bones"]
						var start := rotations_of(bones)
						var modification: SkeletonModification2D = case["stack"].get_modification(0)
						var result := {}
						if order == "built-in first":
							# The bones now show the built-in's pose, as in the editor before converting.
							run_builtin(case, 1)
							result = Convert.convert_modifications(case["skeleton"])
						else:
							result = Convert.convert_modifications(case["skeleton"])
							modification.enabled = true
							run_builtin(case, 1)
							modification.enabled = false
						var builtin_knee: Vector2 = bones[1].global_position
						var builtin_end := bone_end(bones[1])
						if not expect(result["ok"] and result["nodes"].size() == 1 and result["stack_emptied"], "%s: one node, the stack emptied (%s)" % [label, result]):
							case["root"].free()
							continue
						var reopened := save_and_reopen(case["root"])
						var reopened_bones := [reopened.get_node("Skeleton/bone_0"), reopened.get_node("Skeleton/bone_0/bone_1")]
						var saved_off := largest_rotation_difference(rotations_of(reopened_bones), start)
						expect(saved_off < 1e-5, "%s: the scene saves the drawn pose, not the built-in's (%.6f rad off)" % [label, saved_off])
						# The drawn pose on the bones (what the reopened scene must hold, checked above), then one solve.
						for i in 2:
							reopened_bones[i].rotation = start[i]
						var node: Node2D = reopened.find_children("*", "TwoBoneIk2D", true, false)[0]
						node.update_mode = 2
						node.solve()
						var knee_error: float = reopened_bones[1].global_position.distance_to(builtin_knee)
						var end_error := bone_end(reopened_bones[1]).distance_to(builtin_end)
						worst = maxf(worst, maxf(knee_error, end_error))
						compared += 1
						expect(knee_error < 0.01 and end_error < 0.01, "%s: after reopening, the converted knee and foot are the built-in's (knee %.3f px, foot %.3f px off; flip_bend %s)" % [label, knee_error, end_error, node.flip_bend])
						reopened.free()
						case["root"].free()
	print("two-bone, converted before or after the built-in ran, saved and reopened: %d cases, knee and foot within %.5f px of the built-in's" % [compared, worst])
	expect(compared == 3 * 2 * 2 * 2 * 2, "every case was compared (%d)" % compared)


## A stack that runs nothing still sets every bone's transform from a copy each frame: the converter says so, and
## remove_emptied_stack takes it away with the drawn pose put back on the bones (the built-in's last pose stays on
## them otherwise); a stack that still runs a modification is refused with its name, changing nothing.
func test_an_emptied_stack_can_be_removed_with_the_drawn_pose_back() -> void:
	var case := make_scene(SkeletonModification2DTwoBoneIK.new(), func(m, s):
		m.set_joint_one_bone2d_node(NodePath("bone_0"))
		m.set_joint_two_bone2d_node(NodePath("bone_0/bone_1"))
		m.set_target_node(s.get_path_to(s.get_parent().get_node("Target"))), Vector2(430, 380), 2, [-0.3, 0.5])
	var skeleton: Skeleton2D = case["skeleton"]
	var bones: Array = case["bones"]
	var start := rotations_of(bones)
	var builtin := run_builtin(case, 1)
	expect(largest_rotation_difference(builtin, start) > 0.1, "the built-in moved the bones (%s, drawn %s)" % [builtin, start])
	var jiggle := SkeletonModification2DJiggle.new()
	case["stack"].add_modification(jiggle)
	var result := Convert.convert_modifications(skeleton)
	expect(result["ok"] and not result["stack_emptied"], "the jiggle still runs: the stack is not emptied (%s)" % [result])
	var refused := Convert.remove_emptied_stack(skeleton)
	expect(not refused["ok"] and "Jiggle" in "\n".join(refused["notes"]) and skeleton.get_modification_stack() == case["stack"], "a stack that still runs the jiggle is refused, naming it (%s)" % [refused])
	expect(largest_rotation_difference(rotations_of(bones), builtin) < 1e-6, "a refusal changes no bone")
	jiggle.enabled = false
	expect(Convert.stack_runs_nothing(skeleton), "with the jiggle disabled the stack runs nothing")
	var removed := Convert.remove_emptied_stack(skeleton)
	expect(removed["ok"] and skeleton.get_modification_stack() == null, "the emptied stack is removed (%s)" % [removed])
	var back := largest_rotation_difference(rotations_of(bones), start)
	expect(back < 1e-6, "the bones are back in their drawn pose (%.7f rad off)" % back)
	expect(not Convert.stack_runs_nothing(skeleton), "no stack: nothing to remove")
	var again := Convert.remove_emptied_stack(skeleton)
	expect(not again["ok"] and "no SkeletonModificationStack2D" in "\n".join(again["notes"]), "removing again is refused (%s)" % [again])
	var sprite := Sprite2D.new()
	expect(not Convert.remove_emptied_stack(sprite)["ok"] and not Convert.remove_emptied_stack(null)["ok"], "what is not a skeleton is refused")
	sprite.free()
	# A disabled stack runs nothing either; a conversion that disables every modification says the stack is emptied.
	var second := make_scene(SkeletonModification2DLookAt.new(), func(m, s):
		m.set_bone2d_node(NodePath("bone_0"))
		m.set_target_node(s.get_path_to(s.get_parent().get_node("Target"))), Vector2(480, 300), 1)
	var converted := Convert.convert_modifications(second["skeleton"])
	expect(converted["stack_emptied"] and "runs nothing" in "\n".join(converted["notes"]), "the converter says the stack now runs nothing (%s)" % [converted])
	second["stack"].get_modification(0).enabled = true
	second["stack"].enabled = false
	expect(Convert.stack_runs_nothing(second["skeleton"]), "a disabled stack runs nothing")
	print("emptied stack: refused while the jiggle runs, removed once it does not, bones back within %s rad of the drawn pose" % back)
	second["root"].free()
	case["root"].free()
