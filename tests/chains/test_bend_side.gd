extends "res://lib/test_case.gd"
## TwoBoneIk2D without a pole bends the knee the way the artist bent it: the side of the animated pose, or of the
## pose set in the scene when nothing animates, unmirrored and under every mirror setup; `flip_bend` bends it the
## other way; a limb that goes straight keeps its side, also when the character turns around.

## The limb: bones 1 (upper) and 2 (lower) of the mirror rig's chain, so "bone_x"/"bone_y" mirror the limb itself.
const UPPER := 1
const LOWER := 2


## A mirror-rig character whose knee (bone 2) is bent by `knee` radians, with a TwoBoneIk2D on bones 1 and 2 in
## process mode, aiming at a reachable point along the upper bone (so either side is a solution).
func make_limb(setup: String, knee: float, flip: bool, index: int) -> Dictionary:
	var case := MirrorRig.make(self, setup, [0.4, 0.3, knee, -0.5], "Character%d" % index)
	var bones: Array = case["bones"]
	var hip: Vector2 = bones[UPPER].global_position
	var along_upper: Vector2 = (bones[LOWER].global_position - hip).normalized()
	var target := make_target(hip + along_upper * 0.75 * (40.0 + 35.0))
	var ik: Node2D = make_ik("TwoBoneIk2D", case["skeleton"], target, UPPER, LOWER, 0)
	ik.flip_bend = flip
	case["target"] = target
	case["ik"] = ik
	return case


## The global side the knee of `bones` bends to: +1 or -1 (0 when straight).
func knee_side(bones: Array) -> float:
	return MirrorRig.side(bones[UPPER].global_position, bone_end(bones[LOWER]), bones[LOWER].global_position)


## An AnimationPlayer that keys the knee (bone 2) between `knee` and `knee * 1.3` and the hip (bone 1) between 0.3
## and 0.5: a walk that always bends the knee the same way. Moving keys, so the player writes every frame.
func play_walk(case: Dictionary, knee: float) -> AnimationPlayer:
	var player := Animations.rotating("walk", {"Skeleton/bone_0/bone_1": [0.3, 0.5], "Skeleton/bone_0/bone_1/bone_2": [knee, knee * 1.3]})
	case["character"].add_child(player)
	player.play("walk")
	return player


func test_animated_knee_side_is_kept_unmirrored_and_mirrored() -> void:
	var lines := []
	var index := 0
	for setup in MirrorRig.SETUPS:
		for knee in [0.9, -0.9]:
			for flip in [false, true]:
				index += 1
				var case := make_limb(setup, 0.0, flip, index)  # authored straight: only the animation bends it
				var bones: Array = case["bones"]
				play_walk(case, knee)
				# The artist's side: the animation's own pose, measured without the IK.
				bones[UPPER].rotation = 0.3
				bones[LOWER].rotation = knee
				var artist := knee_side(bones)
				bones[LOWER].rotation = 0.0
				var ik: Node2D = case["ik"]
				var sides := []
				for frame in 6:
					await get_tree().process_frame
					sides.append(knee_side(bones))
				var wanted := -artist if flip else artist
				var label := "%s knee %s flip_bend %s" % [setup, knee, flip]
				expect(artist != 0.0, "%s: the animated pose is bent" % label)
				for s in sides:
					expect(s == wanted, "%s: IK knee on side %s every frame, want %s (sides %s)" % [label, s, wanted, sides])
				expect(ik.last_error >= 0.0 and ik.last_error < 1e-2, "%s: reached (error %s)" % [label, ik.last_error])
				lines.append("%s: artist side %+d, IK side %+d over 6 frames %s, error %.5f px" % [label, artist, sides[-1], "steady" if sides.count(sides[0]) == 6 else "CHANGING", ik.last_error])
				free_case(case, ["character", "target", "ik"])
	print("\n".join(lines))


func test_rest_pose_side_without_animation_and_straight_limb_keeps_it() -> void:
	var index := 100
	for setup in ["none", "skeleton_x", "ancestor_x_rotated", "bone_x", "every_bone_mirrored"]:
		for knee in [0.9, -0.9]:
			for flip in [false, true]:
				index += 1
				var case := make_limb(setup, knee, flip, index)
				var bones: Array = case["bones"]
				var artist := knee_side(bones)
				var wanted := -artist if flip else artist
				var ik: Node2D = case["ik"]
				var target: Node2D = case["target"]
				var label := "%s rest knee %s flip_bend %s" % [setup, knee, flip]
				# Several frames: the node reads its own result back (warm start) and must not flip-flop.
				for frame in 4:
					await get_tree().process_frame
					expect(knee_side(bones) == wanted, "%s frame %d: side %s, want %s" % [label, frame, knee_side(bones), wanted])
				# Out of reach: the limb goes straight; back in reach it bends to the same side again.
				var hip: Vector2 = bones[UPPER].global_position
				var near := target.global_position
				target.global_position = hip + (near - hip) * 3.0
				await get_tree().process_frame
				expect(knee_side(bones) == 0.0, "%s: straight when out of reach" % label)
				target.global_position = near
				await get_tree().process_frame
				expect(knee_side(bones) == wanted, "%s: back in reach, side %s, want %s" % [label, knee_side(bones), wanted])
				# Straight again, then the character turns around: the side mirrors with it.
				target.global_position = hip + (near - hip) * 3.0
				await get_tree().process_frame
				var character: Node2D = case["character"]
				var in_character := character.global_transform.affine_inverse() * near
				character.scale.x = -character.scale.x
				target.global_position = character.global_transform * in_character
				await get_tree().process_frame
				expect(knee_side(bones) == -wanted, "%s: turned while straight, side %s, want the mirror %s" % [label, knee_side(bones), -wanted])
				expect(ik.last_error < 1e-2, "%s: reached after turning (error %s)" % [label, ik.last_error])
				free_case(case, ["character", "target", "ik"])
