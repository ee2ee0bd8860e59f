extends RefCounted
## The one list of Reach2D's node classes for the tests, and what sets them apart. Every cross-cutting test (bad
## input, reported once, no allocation, diagnostics, reload, soak, scene fuzzing) loops over ALL, so a new class is
## covered everywhere by adding it here.

## Every node class.
const ALL := ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D", "LookAt2D", "SpringChain2D"]
## Node classes whose shape ALL's helpers do not fit (no single `target`, no `root_bone`..`tip_bone` pair): the
## multi-effector rig. Covered by the tests that need only the class (every numeric property by every route) and by
## its own test file (tests/chains/test_fabrik_rig.gd: bad input, one message each, no allocation).
const RIGS := ["FabrikRig2D"]
## Helper nodes that drive other nodes or weight them instead of bones of their own (no target, no chain): covered
## by the tests that need only the class (every numeric property by every route) and by their own test files
## (tests/legs/test_leg_stepper.gd for LegStepper2D: bad input, one message each, no allocation, the editor's preview in
## addons/reach2d_editor_test).
const HELPERS := ["FootGrounder2D", "CharacterWeight2D", "LegStepper2D"]
## Node classes that lay a chain along a Path2D's curve instead of reaching for a target (ALL's helpers give them no
## path): covered by the tests that need only the class (registration, every numeric property by every route, a
## scene from disk) and by their own test file (tests/path_chain/test_path_chain.gd: bad input, one message each, no NaN, no
## allocation, mirror, animation).
const PATHS := ["PathChain2D"]
## Node classes that follow a node instead of reaching for a target (issue 32's constraints): covered by the tests
## that need only the class (every numeric property by every route, a scene file with bad values) and by their own
## test files (tests/copy/test_copy_*.gd: problems, one message each, no allocation, put back).
const CONSTRAINTS := ["CopyTransform2D"]
## The chains of any length solved toward a target.
const CHAINS := ["FabrikChain2D", "CcdChain2D"]

## The float properties each class validates (a value outside its range is refused with one error).
const CHECKED_FLOATS := {
	"FabrikChain2D": ["weight", "tolerance", "max_angular_speed", "target_rotation_weight"],
	"CcdChain2D": ["weight", "tolerance", "max_angle_step", "max_angular_speed", "target_rotation_weight"],
	"TwoBoneIk2D": ["weight", "softness", "max_angular_speed", "target_rotation_weight", "stretch", "compress"],
	"LookAt2D": ["weight", "angle_offset", "max_angular_speed"],
	"SpringChain2D": ["weight", "max_angle_step", "stiffness", "damping", "teleport_distance", "collision_radius"],
	"PathChain2D": ["weight", "offset"],
}


## The classes that reach for a target: all but the spring.
static func with_target() -> Array:
	return ALL.filter(func(klass): return has_target(klass))


## `true` for the classes that reach for a `target` (all but the spring, which follows its pose over time, and the
## path chains, which follow a curve).
static func has_target(klass: String) -> bool:
	return klass != "SpringChain2D" and not klass in PATHS


## `true` for the classes with a `pole`.
static func has_pole(klass: String) -> bool:
	return klass in ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D"]


## `true` for the class that drives one `bone` instead of `root_bone`..`tip_bone`.
static func single_bone(klass: String) -> bool:
	return klass == "LookAt2D"


## The tip a node of `klass` takes on a chain of `count` bones: the limb's second bone, else the last.
static func tip_index(klass: String, count: int) -> int:
	return 1 if klass == "TwoBoneIk2D" else count - 1


## The node slots of `klass` (each takes a node of one class).
static func node_slots(klass: String) -> Array:
	var slots := ["target"] if has_target(klass) else []
	slots.append_array(["bone"] if single_bone(klass) else ["root_bone", "tip_bone"])
	if has_pole(klass):
		slots.append("pole")
	if klass in PATHS:
		slots.append("path")
	return slots


## Points `node` (of any class) at `bones[root_index]`..`bones[tip_index]` and, when it has one, at `target`.
static func attach(node: Node2D, bones: Array, target: Node2D, root_index: int, tip_index: int) -> void:
	var klass := node.get_class()
	if has_target(klass):
		node.target = target
	if single_bone(klass):
		node.bone = bones[root_index]
	else:
		node.root_bone = bones[root_index]
		node.tip_bone = bones[tip_index]
