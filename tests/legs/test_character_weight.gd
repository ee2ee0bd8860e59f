extends "res://lib/test_case.gd"
## Issue 31, item 7: one weight for a whole character. A `CharacterWeight2D` under a character's root scales the
## weight of every Reach2D node under that root: batched nodes of every class, mirrored characters too.

const LENGTHS := [40.0, 30.0, 25.0, 20.0]
const ANGLES := [0.4, -0.5, 0.3, -0.2]


## A character: a root Node2D at `at` (mirrored with scale.x = -1 when `mirrored`) holding a skeleton, a target and a
## batched node of `klass` (UPDATE_PROCESS) with its own `weight`; with `character_weight` >= 0 also a
## CharacterWeight2D with that weight.
func make_character(klass: String, at: Vector2, mirrored: bool, weight: float, character_weight: float) -> Dictionary:
	var root := Node2D.new()
	root.position = at
	root.scale = Vector2(-1, 1) if mirrored else Vector2.ONE
	add_child(root)
	var skeleton := Skeleton2D.new()
	root.add_child(skeleton)
	Rig.chain(skeleton, LENGTHS, ANGLES)
	var bones := bones_of(skeleton)
	var target := Node2D.new()
	target.position = Vector2(70, 45)
	root.add_child(target)
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.update_mode = 0
	ik.weight = weight
	Nodes.attach(ik, bones, target, 0, Nodes.tip_index(klass, bones.size()))
	if klass == "SpringChain2D":
		ik.gravity = Vector2(0, 900)
	root.add_child(ik)
	var holder: Node = null
	if character_weight >= 0.0:
		holder = ClassDB.instantiate("CharacterWeight2D")
		holder.weight = character_weight
		root.add_child(holder)
	return {"root": root, "bones": bones, "target": target, "ik": ik, "holder": holder}


func test_the_character_weight_multiplies_every_nodes_weight_batched_and_mirrored() -> void:
	for klass in Nodes.ALL:
		var weighted := make_character(klass, Vector2(200, 300), false, 1.0, 0.5)
		var twin := make_character(klass, Vector2(500, 300), false, 0.5, -1.0)
		var mirrored := make_character(klass, Vector2(900, 300), true, 1.0, 0.5)
		var worst_twin := 0.0
		var worst_mirror := 0.0
		# Frames in which the weighted node turned its bones: characters that never moved would agree too.
		var turned := 0
		var pose := rotations_of(weighted["bones"])
		for frame in 30:
			for case in [weighted, twin, mirrored]:
				case["target"].position = Vector2(70, 45) + Vector2(15, 0).rotated(frame * 0.3)
			await get_tree().process_frame
			worst_twin = maxf(worst_twin, largest_rotation_difference(rotations_of(weighted["bones"]), rotations_of(twin["bones"])))
			worst_mirror = maxf(worst_mirror, largest_rotation_difference(rotations_of(weighted["bones"]), rotations_of(mirrored["bones"])))
			if rotations_of(weighted["bones"]) != pose:
				turned += 1
			pose = rotations_of(weighted["bones"])
		expect(turned >= 28, "%s: the weighted node turned its bones (%d of 30 frames)" % [klass, turned])
		expect(worst_twin <= 5e-5, "%s: weight 1 under a character weight of 0.5 is weight 0.5 (worst %s rad)" % [klass, worst_twin])
		expect(worst_mirror <= 1e-4, "%s: the mirrored character is the mirror image (worst %s rad)" % [klass, worst_mirror])
		for case in [weighted, twin, mirrored]:
			case["root"].free()


func test_a_character_weight_of_zero_leaves_the_animated_pose_and_removing_it_gives_the_nodes_their_own_back() -> void:
	for klass in Nodes.ALL:
		var case := make_character(klass, Vector2(300, 300), false, 1.0, 0.0)
		var before := rotations_of(case["bones"])
		await wait_frames(5)
		var off := largest_rotation_difference(before, rotations_of(case["bones"]))
		expect(off == 0.0, "%s: a character weight of 0 writes nothing (moved %s rad)" % [klass, off])
		case["holder"].free()
		await wait_frames(5)
		var on := largest_rotation_difference(before, rotations_of(case["bones"]))
		expect(on > 1e-3, "%s: without the CharacterWeight2D the node solves with its own weight (moved %.3f rad)" % [klass, on])
		case["root"].free()


func test_moving_a_node_from_under_the_character_weight_gives_it_its_own_weight() -> void:
	var case := make_character("FabrikChain2D", Vector2(300, 300), false, 1.0, 0.0)
	var before := rotations_of(case["bones"])
	await wait_frames(3)
	expect(largest_rotation_difference(before, rotations_of(case["bones"])) == 0.0, "weight 0: nothing moves")
	case["ik"].reparent(self)
	await wait_frames(3)
	expect(largest_rotation_difference(before, rotations_of(case["bones"])) > 1e-3, "moved out from under it: solves")
	case["ik"].reparent(case["root"])
	await wait_frames(3)
	var back := largest_rotation_difference(before, rotations_of(case["bones"]))
	expect(back < 1e-5, "back under it: weight 0 again, the bones are back in their own (unsolved) pose (off by %s)" % back)
	case["root"].free()
