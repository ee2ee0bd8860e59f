extends "res://lib/test_case.gd"
## Issue 31, item 4, the same kind beyond the spring: a character (or the node) that leaves the tree and comes back
## unchanged (a reparent) must not change what any node does. Two things did:
## - every node forgot what it had written when its bones re-entered the tree (the chain was resolved again), so a
##   node blending with weight < 1 took its own blended output for the pose it blends from: the limb crept on toward
##   the target at every reparent;
## - FootGrounder2D let go of everything on leaving the tree, smoothing included: coming back, the hips' drop and the
##   feet's turn restarted from zero and popped (27 px at the legs, 17 px at the hips in one frame here).
## Each case is checked mirrored too (scale.x = -1 on the character).

const GroundFeet := preload("res://legs/test_ground_feet.gd")


## A character under `parent` carrying a node of `klass` at weight 0.5 on a 3-bone chain (bone angle 0.3), its target
## a child of the character (so it mirrors with it), in manual mode. Returns Characters.with_node's dictionary.
func make_blending(parent: Node, klass: String, at: Vector2, side: float) -> Dictionary:
	var case := Characters.with_node(parent, klass, at, side < 0.0, func(skeleton: Node) -> Array:
		return Rig.chain(skeleton, [40.0, 34.0, 28.0], [0.4, 0.5, 0.3], "bone_%d", [0.3, 0.3, 0.3]))
	case["ik"].update_mode = 2
	case["ik"].weight = 0.5
	case["target"].position = Vector2(50, 60)
	return case


func test_a_blending_node_keeps_its_pose_when_the_character_is_reparented() -> void:
	for klass in Nodes.with_target():
		for side in [1.0, -1.0]:
			var levels := [Node2D.new(), Node2D.new()]
			for level in levels:
				add_child(level)
			var case := make_blending(levels[0], klass, Vector2(400, 300), side)
			var label := "%s, %s" % [klass, "mirrored" if side < 0.0 else "unmirrored"]
			var drawn := rotations_of(case["bones"])
			for i in 5:
				expect(case["ik"].solve(), "%s: solves" % label)
			var steady := rotations_of(case["bones"])
			expect(largest_rotation_difference(drawn, steady) > 0.05, "%s: the blend turned the bones from the drawn pose" % label)
			case["ik"].solve()
			var still := largest_rotation_difference(steady, rotations_of(case["bones"]))
			case["character"].reparent(levels[1])
			case["ik"].solve()
			var after := largest_rotation_difference(steady, rotations_of(case["bones"]))
			levels[1].remove_child(case["character"])
			levels[0].add_child(case["character"])
			case["ik"].solve()
			var after_remove_add := largest_rotation_difference(steady, rotations_of(case["bones"]))
			expect(still < 1e-5, "%s: weight 0.5 toward a still target is a steady pose (%s rad)" % [label, still])
			expect(after < 1e-5, "%s: the same pose after the character's reparent (%s rad off)" % [label, after])
			expect(after_remove_add < 1e-5, "%s: and after remove_child + add_child (%s rad off)" % [label, after_remove_add])
			print("%s: %s rad off after a reparent, %s after remove + add" % [label, after, after_remove_add])
			for level in levels:
				level.free()


func test_a_blending_rig_keeps_its_pose_when_the_character_is_reparented() -> void:
	for side in [1.0, -1.0]:
		var levels := [Node2D.new(), Node2D.new()]
		for level in levels:
			add_child(level)
		var creature := Characters.two_armed(levels[0], Vector2(400, 300), Vector2(side, 1))
		var skeleton: Node2D = creature["skeleton"]
		var targets := [Rig.target(skeleton, "LeftGrip", Vector2(430, 240)), Rig.target(skeleton, "RightGrip", Vector2(470, 250))]
		var rig := Characters.fabrik_rig(skeleton, creature["bones"], targets)
		rig.weight = 0.5
		var label := "FabrikRig2D, %s" % ["mirrored" if side < 0.0 else "unmirrored"]
		for i in 5:
			rig.solve()
		var steady := rotations_of(creature["bones"])
		skeleton.reparent(levels[1])
		rig.solve()
		var after := largest_rotation_difference(steady, rotations_of(creature["bones"]))
		expect(rig.last_error >= 0.0, "%s: solves after the reparent" % label)
		expect(after < 1e-5, "%s: the same pose after the skeleton's reparent (%s rad off)" % [label, after])
		print("%s: %s rad off after a reparent" % [label, after])
		for level in levels:
			level.free()


func test_a_reparented_grounder_goes_on_where_it_was_mirrored_too() -> void:
	var ground: Node = GroundFeet.new()
	add_child(ground)
	var axis := 600.0
	var cases := []
	# Four characters: a reparented one and its unmoved twin, each unmirrored and mirrored, on sloped ground under
	# each (mirrored for the mirrored ones), walking 1.2 px per step.
	for k in 4:
		var side := 1.0 if k < 2 else -1.0
		var at := Vector2(axis - side * (200.0 + 0.0), 150.0 + (k % 2) * 250.0)
		var case: Dictionary = ground.make_grounded_character(at, side)
		var grounder: Node2D = case["grounder"]
		grounder.foot_speed = 300.0
		grounder.hips_speed = 120.0
		grounder.tilt_speed = 4.0
		ground.make_box_under(Vector2(at.x, case["line_y"] + 16.0), Vector2(500, 100), side * 0.3)
		case["side"] = side
		case["start"] = at
		cases.append(case)
	await ground.settle_physics()
	var holder := Node2D.new()
	add_child(holder)
	var worst := [0.0, 0.0]
	var pop := [0.0, 0.0]
	var largest_step := [0.0, 0.0]
	var last := []
	for k in 4:
		last.append(ground.leg_points(cases[k]))
	for frame in 60:
		if frame == 30:
			for k in [0, 2]:
				cases[k]["grounder"].reparent(holder)
		for k in 4:
			cases[k]["character"].position.x += cases[k]["side"] * 1.2
			ground.advance(cases[k])
		for pair in 2:
			var moved: Dictionary = cases[pair * 2]
			var twin: Dictionary = cases[pair * 2 + 1]
			var a: PackedVector2Array = ground.leg_points(moved)
			var b: PackedVector2Array = ground.leg_points(twin)
			var shift := PackedVector2Array()
			for p in b:
				shift.append(p + (moved["start"] - twin["start"]))
			worst[pair] = maxf(worst[pair], largest_distance(a, shift))
			var step := largest_distance(a, last[pair * 2])
			if frame == 30:
				pop[pair] = step
			elif frame > 0:
				largest_step[pair] = maxf(largest_step[pair], step)
			last[pair * 2] = a
	for pair in 2:
		var label := "mirrored" if pair == 1 else "unmirrored"
		expect(worst[pair] < 5e-3, "%s: the reparented grounder's legs go on as the twin's (worst %s px)" % [label, worst[pair]])
		expect(pop[pair] <= largest_step[pair] + 1e-3, "%s: no pop at the reparent (%s px vs up to %s px per step)" % [label, pop[pair], largest_step[pair]])
		print("grounder reparent, %s: worst %.6f px from the twin; the legs moved %.3f px that step (up to %.3f px per step)" % [label, worst[pair], pop[pair], largest_step[pair]])
	for case in cases:
		case["character"].free()
	for node in [holder, ground]:
		node.free()
