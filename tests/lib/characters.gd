extends RefCounted
## The characters the tests and the benchmarks build in code: a Node2D (or a bare Skeleton2D) holding a skeleton, its
## bones and the nodes that drive them. One builder per kind; each says its bones, lengths, bone angles and mirroring.
## The bones come from lib/rig.gd (shared with the demo); the mirror setups of one 4-bone chain are lib/mirror_rig.gd.

const Rig := preload("res://lib/rig.gd")
const Nodes := preload("res://lib/node_classes.gd")
const Animations := preload("res://lib/animations.gd")

## The mirrored_tails pair's bone lengths (px) and drawn local rotations (radians).
const MIRRORED_TAIL_LENGTHS := [34.0, 28.0, 24.0, 18.0]
const MIRRORED_TAIL_ROTATIONS := [1.2, 0.3, -0.2, 0.4]
## The two-legged character's measures (px, radians): the hips bone's length; thigh and shin lengths; each leg's
## (thigh, shin) rotations, both ankles at the same height, the knees bent the same way, 46 px apart; the foot bone's
## length, bone angle and rotation; the soles' height under the ankles.
const LEG_MEASURES := {
	"hips": 12.0, "thigh": 40.0, "shin": 40.0, "poses": [[-0.5, 0.4], [0.1, 0.4]],
	"foot": 14.0, "foot_angle": 0.2, "foot_rotation": -0.3, "foot_height": 5.0,
}


## A character under `parent` at `at` (named Character<n>, n its parent's child count) with a Skeleton2D 12 px right
## and 7 px up of its origin (so a flip moves the chain's root) holding a chain of `lengths` and local `rotations`,
## every bone with `bone_angle` and each child at its parent's drawn end: the rig the spring tests hang a
## SpringChain2D on. Not mirrored. Returns {character, skeleton, bones}.
static func with_tail(parent: Node, at: Vector2, lengths: Array, rotations: Array, bone_angle: float) -> Dictionary:
	var character := Node2D.new()
	character.name = "Character%d" % parent.get_child_count()
	character.position = at
	parent.add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = Vector2(12, -7)
	character.add_child(skeleton)
	var angles := []
	angles.resize(lengths.size())
	angles.fill(bone_angle)
	var bones := Rig.chain(skeleton, lengths, rotations, "bone_%d", angles)
	return {"character": character, "skeleton": skeleton, "bones": bones}


## A character under `parent` at `at`, turned around (scale.x = -1) when `flipped`, holding a Skeleton2D with the
## bones `build_bones.call(skeleton)` makes (it returns the chain to drive, root first), a target Node2D that is the
## character's child (so it mirrors with it), and a node of `klass` (any of Nodes.ALL) on the chain (Nodes.tip_index
## picks the tip) in process mode; a SpringChain2D has no target and hangs under gravity (0, 600) px/s² instead.
## Returns {character, skeleton, bones, target, ik}.
static func with_node(parent: Node, klass: String, at: Vector2, flipped: bool, build_bones: Callable) -> Dictionary:
	var character := Node2D.new()
	character.position = at
	character.scale = Vector2(-1, 1) if flipped else Vector2.ONE
	parent.add_child(character)
	var skeleton := Skeleton2D.new()
	character.add_child(skeleton)
	var bones: Array = build_bones.call(skeleton)
	var target := Node2D.new()
	character.add_child(target)
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.update_mode = 0
	if klass == "SpringChain2D":
		ik.gravity = Vector2(0, 600)
	Nodes.attach(ik, bones, target, 0, Nodes.tip_index(klass, bones.size()))
	character.add_child(ik)
	return {"character": character, "skeleton": skeleton, "bones": bones, "target": target, "ik": ik}


## A two-legged character under `parent` at `at` (scale.x = `facing`: -1 turns it around) with `measures`
## (LEG_MEASURES, or a dictionary of the same keys): a Skeleton2D at its origin with a Hips bone (bone angle -PI/2:
## drawn upward) and, for each leg i, Thigh<i> at the hips (bone angle PI/2: drawn downward), Shin<i> at the thigh's
## end (PI/2) and Foot<i> at the shin's end, and a TwoBoneIk2D (no target, default settings) on Thigh<i>..Shin<i>
## added under `leg_parent`. Returns {character, skeleton, hips, thighs, shins, feet, legs} (legs: the TwoBoneIk2D
## nodes).
static func two_legged(parent: Node, at: Vector2, facing: float, leg_parent: Node, measures := LEG_MEASURES) -> Dictionary:
	var character := Node2D.new()
	character.position = at
	character.scale = Vector2(facing, 1.0)
	parent.add_child(character)
	var skeleton := Skeleton2D.new()
	character.add_child(skeleton)
	var hips := Rig.bone(skeleton, "Hips", Vector2.ZERO, measures["hips"], -PI / 2)
	var thighs: Array[Bone2D] = []
	var shins: Array[Bone2D] = []
	var feet: Array[Bone2D] = []
	var nodes: Array[Node2D] = []
	for i in 2:
		var pose: Array = measures["poses"][i]
		var thigh := Rig.bone(hips, "Thigh%d" % i, Vector2.ZERO, measures["thigh"], PI / 2, pose[0])
		var shin := Rig.bone(thigh, "Shin%d" % i, Vector2(0, measures["thigh"]), measures["shin"], PI / 2, pose[1])
		var foot := Rig.bone(shin, "Foot%d" % i, Vector2(0, measures["shin"]), measures["foot"], measures["foot_angle"],
			measures["foot_rotation"])
		var leg: Node2D = ClassDB.instantiate("TwoBoneIk2D")
		leg.root_bone = thigh
		leg.tip_bone = shin
		leg_parent.add_child(leg)
		thighs.append(thigh)
		shins.append(shin)
		feet.append(foot)
		nodes.append(leg)
	return {"character": character, "skeleton": skeleton, "hips": hips, "thighs": thighs, "shins": shins, "feet": feet,
		"legs": nodes}


## How far below the hips the first leg's animated ankle is (px), its thigh and shin taken as equally long: the
## animation's ground line is this plus the foot height.
static func ankle_drop(measures := LEG_MEASURES) -> float:
	var pose: Array = measures["poses"][0]
	return measures["thigh"] * (cos(pose[0]) + cos(pose[0] + pose[1]))


## A FootGrounder2D grounding `character` (a two_legged result built with `measures`) on the animation's ground line
## (the soles' line, ankle_drop + foot_height below the hips), a child of the character, in manual mode.
static func foot_grounder(character: Dictionary, measures := LEG_MEASURES) -> Node2D:
	var grounder: Node2D = ClassDB.instantiate("FootGrounder2D")
	grounder.position = Vector2(0, ankle_drop(measures) + measures["foot_height"])
	character["character"].add_child(grounder)
	grounder.update_mode = 2
	grounder.first_leg = character["legs"][0]
	grounder.second_leg = character["legs"][1]
	grounder.first_foot = character["feet"][0]
	grounder.second_foot = character["feet"][1]
	grounder.hips = character["hips"]
	grounder.foot_height = measures["foot_height"]
	return grounder


## A Skeleton2D under `parent` at `at` with `skeleton_scale` (Vector2(-1, 1) mirrors it) holding Rig's two-armed
## creature: a spine of three bones whose chest carries both shoulders, two two-bone arms, bone angles != 0.
## Returns {skeleton, bones}, the bones in the rig's order: spine_0, spine_1, chest, left_0, left_1, right_0, right_1.
static func two_armed(parent: Node, at: Vector2, skeleton_scale := Vector2.ONE) -> Dictionary:
	var skeleton := Skeleton2D.new()
	skeleton.position = at
	skeleton.scale = skeleton_scale
	parent.add_child(skeleton)
	return {"skeleton": skeleton, "bones": Rig.two_armed_creature(skeleton)}


## A FabrikRig2D under `parent` reaching the two-armed creature's hands (`bones[4]`, `bones[6]`) for `targets` (two
## Node2D) from the spine's root, in `mode`, default settings, its effectors set as nodes before it enters the tree.
## `process_priority` other than 0 is set before it enters the tree: a priority of the user's own, so the batch
## leaves it to process itself.
static func fabrik_rig(parent: Node, bones: Array, targets: Array, mode := 2, process_priority := 0) -> Node2D:
	var rig: Node2D = ClassDB.instantiate("FabrikRig2D")
	rig.update_mode = mode
	if process_priority != 0:
		rig.process_priority = process_priority
	rig.root_bone = bones[0]
	rig.effector_tips = [bones[4], bones[6]]
	rig.effector_targets = targets
	parent.add_child(rig)
	return rig


## What a user would stack instead of a FabrikRig2D on the two-armed creature: two FabrikChain2D under `parent`, from
## the spine's root to the left hand toward `targets[0]`, then to the right hand toward `targets[1]`, in `mode`.
static func stacked_chains(parent: Node, bones: Array, targets: Array, mode := 2) -> Array:
	var out := []
	for k in 2:
		var chain: Node2D = ClassDB.instantiate("FabrikChain2D")
		chain.update_mode = mode
		chain.root_bone = bones[0]
		chain.tip_bone = bones[4 + 2 * k]
		chain.target = targets[k]
		parent.add_child(chain)
		out.append(chain)
	return out


## The spring tests' mirrored pair: two with_tail characters (bones of MIRRORED_TAIL_LENGTHS px, local rotations
## MIRRORED_TAIL_ROTATIONS, bone angle 0.25) at y = 250, 150 px either side of x = `axis_x`, the second turned around
## (scale.x = -1). Returns [first, second].
static func mirrored_tails(parent: Node, axis_x: float) -> Array:
	var a := with_tail(parent, Vector2(axis_x - 150, 250), MIRRORED_TAIL_LENGTHS, MIRRORED_TAIL_ROTATIONS, 0.25)
	var b := with_tail(parent, Vector2(axis_x + 150, 250), MIRRORED_TAIL_LENGTHS, MIRRORED_TAIL_ROTATIONS, 0.25)
	b["character"].scale = Vector2(-1, 1)
	return [a, b]


## Poses a mirrored_tails pair about x = `axis_x` at time `t` (s): the first sways from its start by (amplitude.x
## sin 2t, amplitude.y sin 3.1t) px and tilts by 0.3 sin 1.7t rad, the second does the mirror image.
static func sway_mirrored_tails(pair: Array, axis_x: float, t: float, amplitude: Vector2) -> void:
	var offset := Vector2(amplitude.x * sin(2.0 * t), amplitude.y * sin(3.1 * t))
	pair[0]["character"].position = Vector2(axis_x - 150, 250) + offset
	pair[1]["character"].position = Vector2(axis_x + 150 - offset.x, 250 + offset.y)
	pair[0]["character"].rotation = 0.3 * sin(1.7 * t)
	pair[1]["character"].rotation = -0.3 * sin(1.7 * t)


## A snake under `parent` at `at` (scale.x = -1 when `flipped`): a Skeleton2D at its origin with a chain of `lengths`
## (every bone with `bone_angle`, each child at its parent's drawn end, local rotations `rotations`), a Path2D
## child of the character (so it mirrors with it) holding `curve`, and a PathChain2D on the whole chain following
## it in `update_mode` (manual unless told otherwise), a child of the character after the skeleton and the path.
## Returns {character, skeleton, bones, path, chain}.
static func on_path(parent: Node, at: Vector2, flipped: bool, lengths: Array, rotations: Array, bone_angle: float, curve: Curve2D, update_mode := 2) -> Dictionary:
	var character := Node2D.new()
	character.name = "Snake%d" % parent.get_child_count()
	character.position = at
	character.scale = Vector2(-1, 1) if flipped else Vector2.ONE
	parent.add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	character.add_child(skeleton)
	var angles := []
	angles.resize(lengths.size())
	angles.fill(bone_angle)
	var bones := Rig.chain(skeleton, lengths, rotations, "bone_%d", angles)
	var path := Path2D.new()
	path.name = "Path"
	path.curve = curve
	character.add_child(path)
	var chain: Node2D = ClassDB.instantiate("PathChain2D")
	chain.name = "PathChain2D"
	chain.update_mode = update_mode
	chain.path = path
	chain.root_bone = bones[0]
	chain.tip_bone = bones[-1]
	character.add_child(chain)
	return {"character": character, "skeleton": skeleton, "bones": bones, "path": path, "chain": chain}


## A Curve2D through `points` (px), each with the handles `handles[i]` (its out handle; the in handle mirrors it), or
## none where `handles` is shorter.
static func curve_through(points: Array, handles: Array = []) -> Curve2D:
	var curve := Curve2D.new()
	for i in points.size():
		var handle: Vector2 = handles[i] if i < handles.size() else Vector2.ZERO
		curve.add_point(points[i], -handle, handle)
	return curve


## A gentle S from the origin to the right: two cubic arcs, 800 px across, about 850 px long, its radius of curvature
## 309 px at the tightest.
static func s_curve() -> Curve2D:
	return curve_through([Vector2.ZERO, Vector2(400, 120), Vector2(800, 0)], [Vector2(160, 0), Vector2(160, 0), Vector2(160, 0)])


## A closed circle of `radius` around `center` (four cubic arcs; its last point is its first), from the point right of
## the center, clockwise on screen (Godot's y axis points down).
static func circle_curve(center: Vector2, radius: float) -> Curve2D:
	var k := 0.5523 * radius
	var points := [Vector2(radius, 0), Vector2(0, radius), Vector2(-radius, 0), Vector2(0, -radius), Vector2(radius, 0)]
	var handles := [Vector2(0, k), Vector2(-k, 0), Vector2(0, -k), Vector2(k, 0), Vector2(0, k)]
	var curve := Curve2D.new()
	for i in points.size():
		curve.add_point(center + points[i], -handles[i], handles[i])
	return curve


## `path`'s curve itself (not its baked points) in global px: 2000 samples per Bezier segment (Curve2D.samplef),
## for distance_from_curve.
static func dense_curve(path: Path2D) -> PackedVector2Array:
	var out := PackedVector2Array()
	var steps := (path.curve.point_count - 1) * 2000
	for i in steps + 1:
		out.append(path.to_global(path.curve.samplef(float(i) / 2000.0)))
	return out


## The distance (px) of `point` from the polyline `dense` (dense_curve's samples joined by straight lines).
static func distance_from_curve(dense: PackedVector2Array, point: Vector2) -> float:
	var best := INF
	for i in dense.size() - 1:
		best = minf(best, Geometry2D.get_closest_point_to_segment(point, dense[i], dense[i + 1]).distance_to(point))
	return best


## A character under `parent` at `at` carrying Rig.head_and_arm's bones under a Skeleton2D, turned around (scale.x =
## -1) when `flipped`, with an AnimationPlayer "Player" (added and playing, process callback) turning Torso, Head,
## Upper and Fore over a looping second, and a CopyTransform2D per follower in `mode` (process by default), global
## space, plain copy of rotation and position: EyeL and EyeR follow Head, Sword follows Fore. Each keeps its drawn place
## on its source: its position offset is its origin in the source's frame and its rotation offset the angle from the
## source's x axis to its own, both measured on the unflipped character before anything moved (so the flipped one gets
## the same settings). The copies come after the player and the skeleton. Returns {character, skeleton, bones
## (Rig.head_and_arm's), player, copies: {EyeL, EyeR, Sword}}.
static func with_followers(parent: Node, at: Vector2, flipped: bool, mode := 0) -> Dictionary:
	var character := Node2D.new()
	character.name = "Followers%d" % parent.get_child_count()
	character.position = at
	parent.add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	character.add_child(skeleton)
	var bones := Rig.head_and_arm(skeleton)
	var copies := {}
	for pair in [[bones["eyes"][0], bones["head"]], [bones["eyes"][1], bones["head"]], [bones["sword"], bones["fore"]]]:
		var follower: Bone2D = pair[0]
		var source: Bone2D = pair[1]
		var copy: Node2D = ClassDB.instantiate("CopyTransform2D")
		copy.name = "Copy" + follower.name
		copy.update_mode = mode
		copy.source = source
		copy.bone = follower
		copy.position_offset = source.global_transform.affine_inverse() * follower.global_position
		copy.rotation_offset = angle_difference(source.global_rotation, follower.global_rotation)
		copies[String(follower.name)] = copy
	var rotations := {}
	for path in ["Skeleton/Torso", "Skeleton/Torso/Head", "Skeleton/Torso/Upper", "Skeleton/Torso/Upper/Fore"]:
		var from: float = character.get_node(path).rotation
		rotations[path] = [from, from + 0.5, from - 0.3]
	var player := Animations.rotating("move", rotations)
	character.add_child(player)
	for copy in copies.values():
		character.add_child(copy)
	character.scale = Vector2(-1, 1) if flipped else Vector2.ONE
	player.play("move")
	return {"character": character, "skeleton": skeleton, "bones": bones, "player": player, "copies": copies}
## LegStepper2D's creatures (issue 33): each leg's hip, knee and foot in the body's space (y down), the feet on the
## line STEPPER_FOOT_DROP below the body, knees up and out, hips on the body. `klass` other than TwoBoneIk2D splits
## the shin at `mid` (a chain leg of three bones).
const STEPPER_FOOT_DROP := 40.0


## `feet_x` as legs: hips at 0.3 of the foot's x, knees 16 px beyond halfway out and 8 px above the body (thigh and
## shin near in length, so each leg reaches well up and down from its rest); `chains` maps a leg's index to the class
## of its chain leg.
static func stepper_legs(feet_x: Array, chains := {}) -> Array:
	var legs := []
	for i in feet_x.size():
		var x: float = feet_x[i]
		var hip := Vector2(x * 0.3, 0.0)
		var foot := Vector2(x, STEPPER_FOOT_DROP)
		var knee := Vector2((hip.x + foot.x) * 0.5 + signf(x) * 16.0, -8.0)
		var leg := {"hip": hip, "knee": knee, "foot": foot}
		if chains.has(i):
			leg["klass"] = chains[i]
			leg["mid"] = knee.lerp(foot, 0.5) + Vector2(signf(x) * 6.0, 0.0)
		legs.append(leg)
	return legs


## Six legs: four TwoBoneIk2D, a FabrikChain2D (leg 1) and a CcdChain2D (leg 4).
static func six_legs() -> Array:
	return stepper_legs([-60.0, -36.0, -12.0, 12.0, 36.0, 60.0], {1: "FabrikChain2D", 4: "CcdChain2D"})


## Eight TwoBoneIk2D legs (a spider).
static func eight_legs() -> Array:
	return stepper_legs([-70.0, -50.0, -30.0, -10.0, 10.0, 30.0, 50.0, 70.0])


## A creature under `parent` at `at` (its feet's ground line STEPPER_FOOT_DROP below; scale.x = `facing`) walking with
## a LegStepper2D: a root Node2D (what a script moves) holding a Skeleton2D with Rig.legged_creature's body and `legs`
## (bone angles 0.3; chain legs solve from rest, so a mirrored creature is exact), the legs' IK nodes and the stepper
## (manual mode, its `body` the Body bone, `step_distance` 24 px). Returns {creature, skeleton, body, legs, bones, stepper}.
static func stepping_creature(parent: Node, at: Vector2, facing := 1.0, legs := six_legs()) -> Dictionary:
	var creature := Node2D.new()
	creature.name = "Creature"
	creature.position = at
	creature.scale = Vector2(facing, 1.0)
	parent.add_child(creature)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	creature.add_child(skeleton)
	var built := Rig.legged_creature(skeleton, legs, 0.3, creature)
	for leg: Node2D in built["legs"]:
		if leg.get_class() != "TwoBoneIk2D":
			leg.solve_from_rest = true
			leg.tolerance = 0.01
	var stepper: Node2D = ClassDB.instantiate("LegStepper2D")
	stepper.name = "Stepper"
	stepper.update_mode = 2
	creature.add_child(stepper)
	stepper.legs = built["legs"]
	stepper.body = built["body"]
	# A step these legs reach at any drift: 24 px plus the lead (0.1 s) behind or ahead of the rest pose.
	stepper.step_distance = 24.0
	return {"creature": creature, "skeleton": skeleton, "body": built["body"], "legs": built["legs"],
		"bones": built["bones"], "stepper": stepper}


## The stepper walk's ground (y down, flat at 400): a bump 12 px high at x 180-280, a block 15 px high at 420-520, a
## slope rising 32 px over 620-780, a plateau, and a step back down at 900. Top surface, left to right.
const STEPPER_GROUND := [
	Vector2(-3000, 400), Vector2(180, 400), Vector2(200, 394), Vector2(215, 389), Vector2(230, 388), Vector2(245, 389),
	Vector2(260, 394), Vector2(280, 400), Vector2(420, 400), Vector2(420, 385), Vector2(520, 385), Vector2(520, 400),
	Vector2(620, 400), Vector2(780, 368), Vector2(900, 368), Vector2(900, 400), Vector2(4000, 400),
]


## The stepper walk's ground under `parent` as one StaticBody2D (layer 1), mirrored across x = `axis_x` when
## `mirrored`.
static func stepper_ground(parent: Node, mirrored := false, axis_x := 0.0) -> StaticBody2D:
	var body := StaticBody2D.new()
	body.name = "Ground"
	var polygon := PackedVector2Array()
	for p: Vector2 in STEPPER_GROUND:
		polygon.append(Vector2(2.0 * axis_x - p.x, p.y) if mirrored else p)
	polygon.append(Vector2(polygon[-1].x, 600))
	polygon.append(Vector2(polygon[0].x, 600))
	var shape := CollisionPolygon2D.new()
	shape.polygon = polygon
	body.add_child(shape)
	parent.add_child(body)
	return body


## The height (y) of STEPPER_GROUND's top at `x` (on a riser, the higher side).
static func stepper_ground_height(x: float) -> float:
	var best := INF
	for i in STEPPER_GROUND.size() - 1:
		var a: Vector2 = STEPPER_GROUND[i]
		var b: Vector2 = STEPPER_GROUND[i + 1]
		if x >= minf(a.x, b.x) and x <= maxf(a.x, b.x):
			var y := a.y if a.x == b.x else lerpf(a.y, b.y, (x - a.x) / (b.x - a.x))
			best = minf(best, minf(y, minf(a.y, b.y)) if a.x == b.x else y)
	return best
