extends Node
## Base of every test file: assertions that record failures instead of stopping, the logger, and what every test
## uses: Skeleton2D/Bone2D scenes built in code (a chain, a target, a node of any class on a chain, a box for the
## physics space) and measures of a pose (joints, lengths, rotations, mirror images). The runner makes one instance
## per `test_*` method and adds it to the tree.
##
## Fixtures of one kind have files of their own: lib/characters.gd (characters carrying nodes: a tail, two legs, two
## arms), lib/mirror_rig.gd (the mirror setups), lib/animations.gd (animation players), lib/rig.gd (the bone builders
## shared with the demo). The measures are static, so a script that is no test calls them too, as the soak does:
## `TestCase.all_finite(bones)`.

## The one Bone2D chain builder, shared with the demo project (a link to godot_project/common/rig.gd).
const Rig := preload("res://lib/rig.gd")
## The one list of node classes.
const Nodes := preload("res://lib/node_classes.gd")
## The fixtures: characters carrying nodes, the mirror setups, animation players.
const Characters := preload("res://lib/characters.gd")
const MirrorRig := preload("res://lib/mirror_rig.gd")
const Animations := preload("res://lib/animations.gd")
## The logger every test method gets as `error_log` (named apart from `ErrorLog`, the name other scripts preload it
## under, so that a test file may still do so).
const ErrorLogScript := preload("res://lib/error_log.gd")

var failures: PackedStringArray = []
## What Godot logs while this test method runs: the one logger of a test file, added when the test enters the tree
## and removed when it leaves.
var error_log: ErrorLogScript = ErrorLogScript.new()


func _enter_tree() -> void:
	OS.add_logger(error_log)


func _exit_tree() -> void:
	OS.remove_logger(error_log)


# --- Assertions: a failure is recorded and the test goes on. -------------------------------------------------------

func expect(condition: bool, message: String) -> bool:
	if not condition:
		failures.append(message)
	return condition


func expect_near(actual: float, expected: float, tolerance: float, message: String) -> bool:
	var ok := is_finite(actual) and absf(actual - expected) <= tolerance
	return expect(ok, "%s: got %s, expected %s ± %s" % [message, actual, expected, tolerance])


func expect_vec_near(actual: Vector2, expected: Vector2, tolerance: float, message: String) -> bool:
	var ok := actual.is_finite() and actual.distance_to(expected) <= tolerance
	return expect(ok, "%s: got %s, expected %s (off by %s, tolerance %s)" % [message, actual, expected, actual.distance_to(expected), tolerance])


# --- Scenes under this test node. ----------------------------------------------------------------------------------

## A Skeleton2D under this test node holding a chain of bones along `angles` (local rotations) with
## `lengths`; returns the skeleton. The bones are named bone_0 .. bone_<n-1>, each the parent of the next.
func make_chain(lengths: Array, angles: Array = [], skeleton_scale := Vector2.ONE, position := Vector2(400, 300)) -> Skeleton2D:
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = position
	skeleton.scale = skeleton_scale
	add_child(skeleton)
	Rig.chain(skeleton, lengths, angles)
	return skeleton


func make_target(at: Vector2) -> Node2D:
	var target := Node2D.new()
	target.name = "Target"
	add_child(target)
	target.global_position = at
	return target


## A node of class `klass` (any of `Nodes.ALL`) driving `skeleton`'s chain from bone `root_index` to `tip_index`
## toward `target` (a SpringChain2D has none and ignores it), in manual mode unless told otherwise.
func make_ik(klass: String, skeleton: Node, target: Node2D, root_index := 0, tip_index := -1, mode := 2) -> Node2D:
	var bones := bones_of(skeleton)
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.name = klass
	ik.update_mode = mode
	Nodes.attach(ik, bones, target, root_index, tip_index if tip_index >= 0 else bones.size() + tip_index)
	add_child(ik)
	return ik


## A SpringChain2D under this test node on `bones` (root first) in `mode` (manual unless told otherwise), touching the
## physics space when `colliders`; no gravity, the class's default stiffness and radius.
func make_spring(bones: Array, mode := 2, colliders := false) -> Node2D:
	var spring: Node2D = ClassDB.instantiate("SpringChain2D")
	spring.update_mode = mode
	spring.root_bone = bones[0]
	spring.tip_bone = bones[-1]
	spring.use_colliders = colliders
	add_child(spring)
	return spring


## A SpringChain2D (make_spring, manual mode) on each tail of a Characters.mirrored_tails pair, with colliders of
## `collision_radius` px when it is > 0, under gravity (0, 980) px/s² with `stiffness` and `damping`; the first is
## pushed by a wind of `wind` px/s² along x, the second by its mirror image. Returns [first's, second's].
func make_mirrored_springs(pair: Array, stiffness: float, damping: float, wind: float, collision_radius := 0.0) -> Array:
	var springs := []
	for i in 2:
		var spring := make_spring(pair[i]["bones"], 2, collision_radius > 0.0)
		if collision_radius > 0.0:
			spring.collision_radius = collision_radius
		spring.gravity = Vector2(0, 980)
		spring.stiffness = stiffness
		spring.damping = damping
		spring.external_force = Vector2(wind if i == 0 else -wind, 0)
		springs.append(spring)
	return springs


## Frame `frame` of a mirrored pair and its springs: Characters.sway_mirrored_tails at t = frame / 60 s with
## `amplitude`, then each spring steps 1/60 s.
func step_mirrored_springs(pair: Array, springs: Array, axis_x: float, frame: int, amplitude: Vector2) -> void:
	Characters.sway_mirrored_tails(pair, axis_x, frame / 60.0, amplitude)
	for spring in springs:
		spring.advance(1.0 / 60.0)


## A StaticBody2D box (layer 1) of `size` centred at `center`, turned by `rotation`.
func make_box(center: Vector2, size: Vector2, rotation := 0.0) -> StaticBody2D:
	var body := StaticBody2D.new()
	body.position = center
	body.rotation = rotation
	var shape := CollisionShape2D.new()
	var rect := RectangleShape2D.new()
	rect.size = size
	shape.shape = rect
	body.add_child(shape)
	add_child(body)
	return body


## Lets the physics server take new shapes in.
func settle_physics() -> void:
	for i in 2:
		await get_tree().physics_frame


## Waits `n` process frames.
func wait_frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame


## Frees `case[key]` for each of `keys`, in that order: a node, or each node of an array of them. Missing keys and
## nodes already freed are skipped.
func free_case(case: Dictionary, keys: Array) -> void:
	for key in keys:
		var value: Variant = case.get(key)
		for node in (value if value is Array else [value]):
			if is_instance_valid(node):
				node.free()


# --- Measures of a pose (static: the soak and the benchmarks use them too). ------------------------------------------

## The chain below `skeleton`: its first Bone2D child, that bone's first Bone2D child, and so on.
static func bones_of(skeleton: Node) -> Array[Bone2D]:
	var out: Array[Bone2D] = []
	var node: Node = skeleton
	while node.get_child_count() > 0:
		var next: Node = null
		for child in node.get_children():
			if child is Bone2D:
				next = child
				break
		if next == null:
			break
		out.append(next)
		node = next
	return out


## The end of a bone along its bone_angle, in global coordinates: the chain's end effector when it is the tip.
static func bone_end(bone: Bone2D) -> Vector2:
	return Rig.bone_end(bone)


## Each bone's local rotation (radians).
static func rotations_of(bones: Array) -> PackedFloat32Array:
	var out := PackedFloat32Array()
	for bone in bones:
		out.append(bone.rotation)
	return out


## `true` when no bone holds a NaN or infinite rotation or global position.
static func all_finite(bones: Array) -> bool:
	for bone in bones:
		if not is_finite(bone.rotation) or not bone.global_position.is_finite():
			return false
	return true


## Each bone's global origin, then the tip's end.
static func joints_of(bones: Array) -> PackedVector2Array:
	var out := PackedVector2Array()
	for bone in bones:
		out.append(bone.global_position)
	out.append(bone_end(bones[-1]))
	return out


## Largest relative change of any segment length between two joint lists.
static func worst_length_change(before: PackedVector2Array, after: PackedVector2Array) -> float:
	var worst := 0.0
	for i in before.size() - 1:
		var a := before[i].distance_to(before[i + 1])
		var b := after[i].distance_to(after[i + 1])
		if a > 1e-3:
			worst = maxf(worst, absf(a - b) / a)
	return worst


## The chain's length along its joints (px): how far its end reaches from its root.
static func reach_of(bones: Array) -> float:
	var joints := joints_of(bones)
	var total := 0.0
	for i in joints.size() - 1:
		total += joints[i].distance_to(joints[i + 1])
	return total


## Largest angle (radians, the short way round) between two lists of rotations (arrays of floats, packed or not),
## entry by entry.
static func largest_rotation_difference(a, b) -> float:
	var worst := 0.0
	for i in a.size():
		worst = maxf(worst, absf(angle_difference(a[i], b[i])))
	return worst


## Largest distance (px) between the points of `a` and `b`, entry by entry.
static func largest_distance(a: PackedVector2Array, b: PackedVector2Array) -> float:
	var worst := 0.0
	for i in a.size():
		worst = maxf(worst, a[i].distance_to(b[i]))
	return worst


## Largest distance (px) between `b`'s points and `a`'s mirrored across x = `axis_x` (mirror_point), entry by entry:
## 0 when the character of `b` is the mirror image of the one of `a` about that line.
static func largest_mirror_distance(a: PackedVector2Array, b: PackedVector2Array, axis_x: float) -> float:
	var worst := 0.0
	for i in a.size():
		worst = maxf(worst, mirror_point(a[i], axis_x).distance_to(b[i]))
	return worst


## How far a CopyTransform2D's bone is from where a plain global copy puts it: [the angle (rad) between the bone's x
## axis and its source's turned by `rotation_offset` (the other way for a mirrored source), the distance (px) from its
## origin to the point at `position_offset` in the source's frame].
static func copy_error(copy: Node2D) -> Array:
	var t: Transform2D = copy.source.global_transform
	var wanted := t.x.rotated(copy.rotation_offset * signf(t.determinant()))
	var bone: Bone2D = copy.bone
	return [absf(bone.global_transform.x.angle_to(wanted)), bone.global_position.distance_to(t * copy.position_offset)]


## `p` mirrored across the vertical line x = `axis_x`: where a character turned around with scale.x = -1 about that
## line puts what its twin has at `p`.
static func mirror_point(p: Vector2, axis_x: float) -> Vector2:
	return Vector2(2.0 * axis_x - p.x, p.y)
