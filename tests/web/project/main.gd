extends Node2D
## The browser test: each of the five nodes drives its own Skeleton2D (4 bones with a non-zero bone_angle; some
## characters mirrored with scale.x = -1) toward a moving target for FRAMES frames, solved by hand each frame
## (update_mode Manual) so the solve time can be measured. Prints one line per node, a frame line and the sentinel
## to the console, which `cargo xtask test --web` reads. Nothing here names an extension class statically, so the
## editor that exports the project parses it without loading the extension.

const FRAMES := 120
const WARMUP := 10  # frames before the error counts: the first solves start from the rest pose
const LENGTHS := [60.0, 50.0, 40.0, 30.0]
const BONE_ANGLE := 0.35
const SENTINEL := "REACH2D_WEB_DONE"
## The chains stop iterating within this distance of the target (px); the analytic nodes must be exact.
const CHAIN_TOLERANCE := 0.05
const EXACT_TOLERANCE := 0.01

var cases: Array[Dictionary] = []
var frame := 0
var solve_usec := 0
var frame_msec := 0.0


func _ready() -> void:
	print("WEB start: Godot %s, %s" % [Engine.get_version_info()["string"], OS.get_name()])
	for klass in ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D", "LookAt2D", "SpringChain2D"]:
		if not ClassDB.class_exists(klass):
			push_error("WEB %s is not registered: the extension did not load" % klass)
			print(SENTINEL)
			return
	var flipped := {"FabrikChain2D": true, "TwoBoneIk2D": true, "SpringChain2D": true}
	var x := 120.0
	for klass in ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D", "LookAt2D", "SpringChain2D"]:
		cases.append(make_case(klass, Vector2(x, 300), flipped.has(klass)))
		x += 260.0


## A character at `at` (mirrored when `flip`) with a skeleton, a 4-bone chain, a target and the node `klass`.
func make_case(klass: String, at: Vector2, flip: bool) -> Dictionary:
	var character := Node2D.new()
	character.name = "%sCharacter" % klass
	character.position = at
	if flip:
		character.scale = Vector2(-1, 1)
	add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.position = Vector2(10, -6)
	character.add_child(skeleton)
	var bones: Array[Bone2D] = []
	var parent: Node = skeleton
	for i in LENGTHS.size():
		var b := Bone2D.new()
		b.name = "bone_%d" % i
		b.set_autocalculate_length_and_angle(false)
		b.set_length(LENGTHS[i])
		b.set_bone_angle(BONE_ANGLE)
		b.position = Vector2.ZERO if i == 0 else Vector2.from_angle(BONE_ANGLE) * LENGTHS[i - 1]
		b.rotation = 0.2 * i
		parent.add_child(b)
		b.rest = b.transform
		bones.append(b)
		parent = b
	var target := Node2D.new()
	target.name = "%sTarget" % klass
	add_child(target)
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.name = klass
	ik.set("update_mode", 2)
	match klass:
		"LookAt2D":
			ik.set("bone", bones[3])
			ik.set("target", target)
		"TwoBoneIk2D":
			ik.set("root_bone", bones[0])
			ik.set("tip_bone", bones[1])
			ik.set("target", target)
		"SpringChain2D":
			ik.set("root_bone", bones[0])
			ik.set("tip_bone", bones[3])
		_:
			ik.set("root_bone", bones[0])
			ik.set("tip_bone", bones[3])
			ik.set("target", target)
			ik.set("max_iterations", 64)
			ik.set("tolerance", CHAIN_TOLERANCE)
	add_child(ik)
	return {"klass": klass, "character": character, "bones": bones, "target": target, "ik": ik, "worst": 0.0,
		"solved": 0, "start": at}


func bone_end(b: Bone2D) -> Vector2:
	return b.global_transform * (Vector2.from_angle(b.get_bone_angle()) * b.get_length())


## Where the target of `case` is on frame `f`: a loop around the chain's root, always within reach.
func target_at(case: Dictionary, f: int) -> Vector2:
	var root: Vector2 = case["bones"][0].global_position
	var t := f / 30.0
	match case["klass"]:
		"TwoBoneIk2D":
			return root + Vector2.from_angle(t) * (70.0 + 15.0 * sin(2.0 * t))
		"LookAt2D":
			return case["bones"][3].global_position + Vector2.from_angle(1.3 * t) * 80.0
		_:
			return root + Vector2.from_angle(0.8 * t + 0.5) * (120.0 + 25.0 * sin(1.7 * t))


func _process(delta: float) -> void:
	if cases.is_empty():
		return
	frame += 1
	frame_msec += delta * 1000.0
	for case in cases:
		var klass: String = case["klass"]
		var bones: Array = case["bones"]
		var ik: Node2D = case["ik"]
		if klass == "SpringChain2D":
			# The body moves back and forth, then stops; the spring follows it.
			var x: float = case["start"].x + (40.0 * sin(frame / 8.0) if frame < FRAMES / 2 else 0.0)
			case["character"].position.x = x
		else:
			case["target"].global_position = target_at(case, frame)
		var lengths_before := joints(bones)
		var t0 := Time.get_ticks_usec()
		var ok: bool = ik.call("solve")
		solve_usec += Time.get_ticks_usec() - t0
		if ok:
			case["solved"] += 1
		var error := 0.0
		match klass:
			"LookAt2D":
				# How far off the aim is, as a distance at the bone's end.
				var b: Bone2D = bones[3]
				var direction: Vector2 = b.global_transform.basis_xform(Vector2.from_angle(b.get_bone_angle()))
				var wanted: Vector2 = case["target"].global_position - b.global_position
				error = absf(direction.angle_to(wanted)) * b.get_length()
			"TwoBoneIk2D":
				error = bone_end(bones[1]).distance_to(case["target"].global_position)
			"SpringChain2D":
				# Only rotations are written: the joints keep their distances; and everything stays finite.
				error = length_change(lengths_before, joints(bones))
				for b in bones:
					if not b.global_position.is_finite():
						error = INF
			_:
				error = bone_end(bones[3]).distance_to(case["target"].global_position)
		if frame > WARMUP:
			case["worst"] = maxf(case["worst"], error)
	if frame == FRAMES:
		for case in cases:
			var klass: String = case["klass"]
			var tolerance := CHAIN_TOLERANCE if klass in ["FabrikChain2D", "CcdChain2D"] else EXACT_TOLERANCE
			var extra := ""
			if klass != "SpringChain2D":
				extra = " reported=%.5f" % float(case["ik"].get("last_error"))
			print("WEB %s worst_tip_px=%.5f tolerance=%.3f solved=%d/%d%s" % [klass, case["worst"], tolerance,
				case["solved"], FRAMES, extra])
		print("WEB frame solve_us_per_frame=%.1f frame_ms=%.2f frames=%d nodes=%d" % [float(solve_usec) / FRAMES,
			frame_msec / FRAMES, FRAMES, cases.size()])
		print(SENTINEL)
		set_process(false)


func joints(bones: Array) -> PackedVector2Array:
	var out := PackedVector2Array()
	for b in bones:
		out.append(b.global_position)
	out.append(bone_end(bones[-1]))
	return out


func length_change(a: PackedVector2Array, b: PackedVector2Array) -> float:
	var worst := 0.0
	for i in a.size() - 1:
		worst = maxf(worst, absf(a[i].distance_to(a[i + 1]) - b[i].distance_to(b[i + 1])))
	return worst
