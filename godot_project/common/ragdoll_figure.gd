extends RefCounted
## The ragdoll figure shared by the Ragdoll2D demo (godot_project/ragdoll.gd) and the tests (tests/lib/ragdolls.gd,
## tests/bench/bench_ragdoll.gd; tests/lib/ragdoll_figure.gd is a link to this file).

const Rig := preload("rig.gd")

## The figure's bones: [name, parent index (-1: the skeleton), position in the parent, length, bone angle, rotation,
## limit min, limit max]. Standing, y down, facing +x: hips (the root) at the skeleton's origin, the spine and head
## drawn up (bone angle -PI/2), arms and legs hanging (PI/2); elbows and knees bend one way. 12 bones.
const BONES := [
	["Hips", -1, Vector2(0, 0), 20.0, -PI / 2, 0.0, 0.0, 0.0],
	["Belly", 0, Vector2(0, -20), 22.0, -PI / 2, 0.0, -0.5, 0.5],
	["Chest", 1, Vector2(0, -22), 24.0, -PI / 2, 0.0, -0.5, 0.5],
	["Head", 2, Vector2(0, -24), 18.0, -PI / 2, 0.0, -0.6, 0.6],
	["UpperArmL", 2, Vector2(0, -20), 26.0, PI / 2, 0.3, -2.8, 2.8],
	["ForeArmL", 4, Vector2(0, 26), 24.0, PI / 2, -0.2, -2.4, 0.05],
	["UpperArmR", 2, Vector2(0, -20), 26.0, PI / 2, -0.3, -2.8, 2.8],
	["ForeArmR", 6, Vector2(0, 26), 24.0, PI / 2, -0.1, -2.4, 0.05],
	["ThighL", 0, Vector2(0, 0), 34.0, PI / 2, 0.15, -1.6, 1.2],
	["ShinL", 8, Vector2(0, 34), 32.0, PI / 2, 0.1, -0.05, 2.2],
	["ThighR", 0, Vector2(0, 0), 34.0, PI / 2, -0.15, -1.6, 1.2],
	["ShinR", 10, Vector2(0, 34), 32.0, PI / 2, 0.05, -0.05, 2.2],
]


## A Skeleton2D under `parent` at `at` (scale `scale`) holding the figure; returns {skeleton, bones}. The bones are
## created parents first, in the order Ragdoll2D numbers them (each before its children, depth first).
static func figure(parent: Node, at: Vector2, scale := Vector2.ONE) -> Dictionary:
	var skeleton := Skeleton2D.new()
	skeleton.position = at
	skeleton.scale = scale
	parent.add_child(skeleton)
	var bones: Array[Bone2D] = []
	for spec in BONES:
		var holder: Node = skeleton if spec[1] < 0 else bones[spec[1]]
		bones.append(Rig.bone(holder, spec[0], spec[2], spec[3], spec[4], spec[5]))
	return {"skeleton": skeleton, "bones": bones}
