extends RefCounted
## Helpers that build Skeleton2D/Bone2D rigs and their simple shapes in code, so the scenes stay small text files.


## A Bone2D under `parent` at `position` (in the parent's space) with a fixed `length` pointing along
## `bone_angle` (radians, in the bone's own space), and local `rotation`. Its rest is its starting transform.
static func bone(parent: Node, bone_name: String, position: Vector2, length: float, bone_angle := 0.0, rotation := 0.0) -> Bone2D:
	var b := Bone2D.new()
	b.name = bone_name
	b.set_autocalculate_length_and_angle(false)
	b.set_length(length)
	b.set_bone_angle(bone_angle)
	b.position = position
	b.rotation = rotation
	parent.add_child(b)
	b.rest = b.transform
	return b


## A chain of Bone2D under `parent` (usually a Skeleton2D), root first, each bone the parent of the next: bone i has
## length `lengths[i]` along its bone angle `bone_angles[i]` (radians in its own space; 0, its x axis, where
## `bone_angles` is shorter), sits at the end of bone i - 1 (the root at `parent`'s origin), has local rotation
## `rotations[i]` (0 where `rotations` is shorter) and is named `name_format % i`. With bone angles the bones are as
## a rig drawn in the editor has them: each child where its parent's drawn end is. Every chain the demo scenes, the
## tests and the benchmark build in code comes from here (tests/lib/rig.gd links to this file). Returns the bones,
## root first.
static func chain(parent: Node, lengths: Array, rotations: Array = [], name_format := "bone_%d", bone_angles: Array = []) -> Array[Bone2D]:
	var bones: Array[Bone2D] = []
	var at := Vector2.ZERO
	for i in lengths.size():
		var rotation: float = rotations[i] if i < rotations.size() else 0.0
		var angle: float = bone_angles[i] if i < bone_angles.size() else 0.0
		var b := bone(parent, name_format % i, at, lengths[i], angle, rotation)
		bones.append(b)
		parent = b
		at = Vector2.from_angle(angle) * lengths[i]
	return bones


## The end of `b` along its bone angle, in global coordinates: the end effector when `b` is a chain's tip.
static func bone_end(b: Bone2D) -> Vector2:
	return b.global_transform * (Vector2.from_angle(b.get_bone_angle()) * b.get_length())



## A character's upper body under `skeleton`, every bone angle != 0: Torso (54 px, drawn up and a little right) at the
## skeleton's origin, Head (26 px) on the torso's end, an arm of Upper (32 px) from the torso's shoulder and Fore (28
## px, its end the hand) on Upper's end; and three bones for CopyTransform2D to move, children of the torso so that
## only a copy makes them follow: EyeL and EyeR (6 px each, at the head) and Sword (60 px, near the hand). Returns
## {torso, head, upper, fore, eyes: [EyeL, EyeR], sword}.
static func head_and_arm(skeleton: Node) -> Dictionary:
	var up := -PI / 2 + 0.1
	var torso := bone(skeleton, "Torso", Vector2.ZERO, 54.0, up, 0.05)
	var head := bone(torso, "Head", Vector2.from_angle(up) * 54.0, 26.0, -PI / 2 - 0.2, 0.1)
	var upper := bone(torso, "Upper", Vector2.from_angle(up) * 44.0, 32.0, 0.4, 0.9)
	var fore := bone(upper, "Fore", Vector2.from_angle(0.4) * 32.0, 28.0, 0.4, 0.6)
	var eyes: Array[Bone2D] = [bone(torso, "EyeL", Vector2(-1, -72), 6.0, 0.3), bone(torso, "EyeR", Vector2(11, -71), 6.0, 0.3)]
	var sword := bone(torso, "Sword", Vector2(34, -20), 60.0, -0.25, 0.2)
	return {"torso": torso, "head": head, "upper": upper, "fore": fore, "eyes": eyes, "sword": sword}

## A rounded stroke along bone `b` (child of it, so it follows the bone).
static func limb(b: Bone2D, width: float, color: Color, z := 0) -> Line2D:
	var line := Line2D.new()
	line.name = "Shape"
	line.points = PackedVector2Array([Vector2.ZERO, Vector2.from_angle(b.get_bone_angle()) * b.get_length()])
	line.width = width
	line.default_color = color
	line.begin_cap_mode = Line2D.LINE_CAP_ROUND
	line.end_cap_mode = Line2D.LINE_CAP_ROUND
	line.antialiased = true
	line.z_index = z
	b.add_child(line)
	return line


## A filled circle polygon child of `parent`.
static func disc(parent: Node, center: Vector2, radius: float, color: Color, z := 0) -> Polygon2D:
	var poly := Polygon2D.new()
	var points := PackedVector2Array()
	for i in 24:
		points.append(center + Vector2.from_angle(TAU * i / 24.0) * radius)
	poly.polygon = points
	poly.color = color
	poly.antialiased = true
	poly.z_index = z
	parent.add_child(poly)
	return poly


## A plain Node2D target under `parent` at `at`.
static func target(parent: Node, target_name: String, at: Vector2) -> Node2D:
	var t := Node2D.new()
	t.name = target_name
	parent.add_child(t)
	t.global_position = at
	return t


## A two-armed creature under `skeleton`: a spine of three bones (spine_0, spine_1, chest; the chest carries both
## shoulders at different points), two two-bone arms, bone angles != 0. Returns the bones in the rig's order:
## spine_0, spine_1, chest, left_0, left_1, right_0, right_1 (the hands are left_1 and right_1).
static func two_armed_creature(skeleton: Node) -> Array:
	var s0 := bone(skeleton, "spine_0", Vector2.ZERO, 40.0, 0.2, -PI / 2)
	var s1 := bone(s0, "spine_1", Vector2(40, 0), 40.0, -0.1, 0.15)
	var chest := bone(s1, "chest", Vector2(40, 0), 20.0, 0.0, -0.1)
	var l0 := bone(chest, "left_0", Vector2(18, -14), 36.0, 0.25, -1.9)
	var l1 := bone(l0, "left_1", Vector2(36, 0), 32.0, -0.3, -0.6)
	var r0 := bone(chest, "right_0", Vector2(18, 14), 36.0, -0.25, 1.9)
	var r1 := bone(r0, "right_1", Vector2(36, 0), 32.0, 0.3, 0.6)
	return [s0, s1, chest, l0, l1, r0, r1]


## A legged creature for LegStepper2D (issue 33) under `skeleton`: a `Body` bone at the skeleton's origin carrying
## one leg per entry of `legs`, each a Dictionary {hip, knee, foot} of points in the body's space (the foot is where
## the leg's end rests: its home), and `klass` ("TwoBoneIk2D" by default; "FabrikChain2D" or "CcdChain2D" split the
## shin in two at `mid`, a point between knee and foot). Every bone has `bone_angle` (radians in its own space), set
## so the bones still run hip -> knee -> foot. The IK node of each leg is added under `ik_parent`, with no target.
## Returns {body, legs (the IK nodes), bones (per leg, its bones root first)}.
static func legged_creature(skeleton: Node, legs: Array, bone_angle := 0.0, ik_parent: Node = null) -> Dictionary:
	var body := bone(skeleton, "Body", Vector2.ZERO, 24.0, bone_angle)
	var nodes: Array[Node2D] = []
	var all_bones: Array = []
	for i in legs.size():
		var leg: Dictionary = legs[i]
		var klass: String = leg.get("klass", "TwoBoneIk2D")
		var points: Array = [leg["hip"], leg["knee"]]
		if klass != "TwoBoneIk2D":
			points.append(leg["mid"])
		points.append(leg["foot"])
		var bones: Array[Bone2D] = []
		var parent: Node = body
		var parent_rotation := 0.0  # global rotation of `parent` within the body's drawn frame
		var at: Vector2 = points[0]
		for k in points.size() - 1:
			var direction: Vector2 = points[k + 1] - points[k]
			var global_rotation := direction.angle() - bone_angle
			var b := bone(parent, "Leg%d_%d" % [i, k], at, direction.length(), bone_angle, global_rotation - parent_rotation)
			bones.append(b)
			parent = b
			parent_rotation = global_rotation
			at = Vector2.from_angle(bone_angle) * direction.length()
		var ik: Node2D = ClassDB.instantiate(klass)
		ik.name = "Leg%d" % i
		ik.root_bone = bones[0]
		ik.tip_bone = bones[-1]
		(ik_parent if ik_parent != null else skeleton.get_parent()).add_child(ik)
		nodes.append(ik)
		all_bones.append(bones)
	return {"body": body, "legs": nodes, "bones": all_bones}
