extends RefCounted
## The mirror setups the tests share: a character (a Node2D holding a Skeleton2D with a 4-bone zig-zag chain, bone
## angles 0) with negative scale put on the skeleton, an ancestor or the bones, one axis or both, under rotation.
## Mirror images are measured with TestCase.mirror_point (lib/test_case.gd).

const Rig := preload("res://lib/rig.gd")

## Every setup `make` knows; "none" is the unmirrored character.
const SETUPS := ["none", "skeleton_x", "skeleton_y", "skeleton_xy", "skeleton_x_scaled_rotated", "ancestor_x_rotated", "bone_x", "bone_y", "bone_xy_and_skeleton_x", "every_bone_mirrored"]


## A character under `parent` at (500, 300) named `character_name`, with bones of lengths 50, 40, 35, 30 and local
## `rotations`, mirrored as `setup` says. Returns {character, skeleton, bones}.
static func make(parent: Node, setup: String, rotations: Array = [0.4, -0.9, 0.8, -0.5], character_name := "Character") -> Dictionary:
	var character := Node2D.new()
	character.name = character_name
	character.position = Vector2(500, 300)
	parent.add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	character.add_child(skeleton)
	var bones := Rig.chain(skeleton, [50.0, 40.0, 35.0, 30.0], rotations)
	match setup:
		"skeleton_x": skeleton.scale = Vector2(-1, 1)
		"skeleton_y": skeleton.scale = Vector2(1, -1)
		"skeleton_xy": skeleton.scale = Vector2(-1, -1)
		"skeleton_x_scaled_rotated":
			skeleton.scale = Vector2(-1.5, 1.5)
			skeleton.rotation = 0.9
		"ancestor_x_rotated":
			character.scale = Vector2(-1, 1)
			character.rotation = -0.6
		"bone_x":
			bones[1].scale = Vector2(-1, 1)
		"bone_y":
			bones[2].scale = Vector2(1, -1)
		"bone_xy_and_skeleton_x":
			bones[1].scale = Vector2(-1, -1)
			skeleton.scale = Vector2(-1, 1)
		"every_bone_mirrored":
			for b in bones:
				b.scale = Vector2(-1, 1) if b.get_index() % 2 == 0 else Vector2(1, -1)
	return {"character": character, "skeleton": skeleton, "bones": bones}


## The end effector of `bones` posed with `rotations`, without leaving the pose changed.
static func effector_for(bones: Array, rotations: Array) -> Vector2:
	var saved := []
	for b in bones:
		saved.append(b.rotation)
	for i in bones.size():
		bones[i].rotation = rotations[i]
	var end := Rig.bone_end(bones[-1])
	for i in bones.size():
		bones[i].rotation = saved[i]
	return end


## Which side of the line from `origin` through `toward` the `point` lies on: +1, -1, or 0 on the line.
static func side(origin: Vector2, toward: Vector2, point: Vector2) -> float:
	var c := (toward - origin).normalized().cross((point - origin).normalized())
	return 0.0 if absf(c) < 1e-4 else signf(c)
