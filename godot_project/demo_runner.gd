extends SceneTree
## Runs every demo scene with scripted targets (no mouse needed) and reports what it measured.
##
##     godot --headless --path godot_project -s res://demo_runner.gd               # one line per scene
##     godot --headless --path godot_project -s res://demo_runner.gd -- --check    # ... plus TEST PASS/FAIL
##     godot --path godot_project -s res://demo_runner.gd -- --screenshots DIR     # PNGs (needs a renderer)
##     godot --path godot_project -s res://demo_runner.gd -- --animate DIR         # raw frames of the moving demos
##
## Per scene: the IK nodes it exposes (`get_ik_nodes()`) are measured every frame: `last_error` and the real
## distance from the end effector to the target. With --check, each must be within the node's tolerance plus how
## far the target lies beyond the chain's reach, `last_error` must be the real distance, and the walker's pose
## must be the exact mirror image when it turns. A node that follows a path (PathChain2D) must have every joint
## within PATH_TOLERANCE_PX of its curve. The last line is always REACH2D_DONE (xtask waits for it); a
## watchdog quits with code 3 if a script error leaves a coroutine hanging.

const DONE_SENTINEL := "REACH2D_DONE"
## The scenes take about 60 s on a quiet machine; a loaded one (parallel builds) needs about twice that. Stays
## under xtask's 180 s per-process timeout.
const WATCHDOG_SECONDS := 170.0
const SCENES := ["main", "setup", "arm", "tentacle", "walker", "tail", "two_hands", "stairs", "snake", "stepper", "blend", "followers", "stress"]
const CHECK_FRAMES := 300
const WARMUP_FRAMES := 3
const SCREENSHOT_FRAMES := 150
## The demos in the README's moving picture, and how it is taken: frames every ANIMATION_STEP engine frames, scaled
## to ANIMATION_SIZE, after the screenshot's warm-up.
const ANIMATED_SCENES := ["stepper", "snake", "tail"]
const ANIMATION_FRAMES := 48
const ANIMATION_STEP := 4
const ANIMATION_SIZE := Vector2i(480, 270)
## Slack on top of a node's tolerance, for float32 rounding in the solve and in this measurement.
const SLACK_PX := 0.02
const LOOK_AT_TOLERANCE_RAD := 1e-3
const MIRROR_TOLERANCE_PX := 1e-2
## How far a path chain's joints may be from its curve (its baked points), px.
const PATH_TOLERANCE_PX := 0.5
## The most a spring chain's bone may turn in one 1/60 s frame before it counts as exploded (radians).
const SPRING_STEP_LIMIT_RAD := 0.5
## How much more a spring bone may turn in a turn's frame than in the worst walking frame.
const TURN_STEP_FACTOR := 1.5

var check := false
## The scenes this run visits: all of SCENES, or the one named by `--scene NAME`.
var scenes: Array = SCENES
var screenshot_dir := ""
var animation_dir := ""
var failed_screens := 0


func _initialize() -> void:
	create_timer(WATCHDOG_SECONDS, true, false, true).timeout.connect(_on_watchdog)
	var args := OS.get_cmdline_user_args()
	check = args.has("--check")
	var at := args.find("--screenshots")
	if at >= 0 and at + 1 < args.size():
		screenshot_dir = args[at + 1]
	var animate := args.find("--animate")
	if animate >= 0 and animate + 1 < args.size():
		animation_dir = args[animate + 1]
		scenes = ANIMATED_SCENES.duplicate()
	var only := args.find("--scene")
	if only >= 0 and only + 1 < args.size():
		scenes = [args[only + 1]]
	_run()


func _on_watchdog() -> void:
	printerr("TEST FAIL demo::watchdog: the demo runner did not finish in %d s" % WATCHDOG_SECONDS)
	quit(3)


func _run() -> void:
	await process_frame
	for scene_name: String in scenes:
		if animation_dir != "":
			await _animate(scene_name)
		elif screenshot_dir != "":
			await _screenshot(scene_name)
		elif scene_name != "main":
			await _run_scene(scene_name)
	print(DONE_SENTINEL)
	quit(1 if failed_screens > 0 else 0)


func _instance(scene_name: String) -> Node:
	var packed: PackedScene = load("res://%s.tscn" % scene_name)
	if packed == null:
		return null
	var scene := packed.instantiate()
	if "scripted" in scene:
		scene.set("scripted", true)
	root.add_child(scene)
	return scene


func _run_scene(scene_name: String) -> void:
	var scene := _instance(scene_name)
	if scene == null or not scene.has_method("get_ik_nodes"):
		_result(scene_name, ["cannot load res://%s.tscn with its demo script" % scene_name])
		if scene != null:
			scene.queue_free()
		return
	var problems: Array[String] = []
	var px := Stats.new()
	var rad := Stats.new()
	var travelled := 0.0
	var last_effectors := {}
	var frame_usec := 0
	var frames_timed := 0
	var classes := {}
	var mirror_worst := -1.0
	var springs: Array = scene.call("get_spring_nodes") if scene.has_method("get_spring_nodes") else []
	var spring_worst := 0.0
	var spring_previous := {}
	var spring_step := Stats.new()
	var spring_turn_step := 0.0
	var facing_before: Variant = scene.get("facing")
	var last := Time.get_ticks_usec()
	for frame in CHECK_FRAMES:
		await process_frame
		var now := Time.get_ticks_usec()
		if frame > WARMUP_FRAMES:
			frame_usec += now - last
			frames_timed += 1
		last = now
		if frame < WARMUP_FRAMES:
			continue
		var nodes: Array = scene.call("get_ik_nodes")
		for node: Node2D in nodes:
			classes[node.get_class()] = classes.get(node.get_class(), 0) + 1
			var m := _measure(node)
			if node.get_class() == "LookAt2D":
				rad.add(m["error"])
			else:
				px.add(m["error"])
				var key := node.get_instance_id()
				if last_effectors.has(key):
					travelled += (last_effectors[key] as Vector2).distance_to(m["effector"])
				last_effectors[key] = m["effector"]
			if m["problem"] != "" and problems.size() < 5:
				problems.append("frame %d %s: %s" % [frame, node.name, m["problem"]])
		# Springs: stepped, finite, within their limit, and a turn moves no bone more than an ordinary frame does.
		var turned: bool = scene.get("facing") != facing_before
		facing_before = scene.get("facing")
		for spring: Node2D in springs:
			var error: float = spring.get("last_error")
			var bones := _chain_bones(spring)
			var step := 0.0
			for b: Bone2D in bones:
				if not (is_finite(b.rotation) and b.global_position.is_finite()):
					error = INF
				var key := b.get_instance_id()
				if spring_previous.has(key):
					step = maxf(step, absf(angle_difference(spring_previous[key], b.rotation)))
				spring_previous[key] = b.rotation
			if turned:
				spring_turn_step = maxf(spring_turn_step, step)
			else:
				spring_step.add(step)
			spring_worst = maxf(spring_worst, error)
			if not (error >= 0.0 and error <= PI + 1e-3 and step <= SPRING_STEP_LIMIT_RAD) and problems.size() < 5:
				problems.append("frame %d %s: deviation %s rad, a bone turned %s rad in one frame (limit %s)" % [frame, spring.name, error, step, SPRING_STEP_LIMIT_RAD])
		if frame == CHECK_FRAMES / 2 and scene.has_method("mirror_check"):
			var worst: Variant = scene.call("mirror_check")
			mirror_worst = worst if worst is float else -1.0
			if not (mirror_worst >= 0.0 and mirror_worst <= MIRROR_TOLERANCE_PX):
				problems.append("the turned walker is not the mirror image of the unturned pose (worst joint %.5f px)" % mirror_worst)
	if scene.has_method("demo_problems"):
		for problem: String in scene.call("demo_problems"):
			problems.append(problem)
	var seen: Array[String] = []
	for klass: String in classes:
		seen.append(klass)
	seen.sort()
	var line := "demo %s: %s; effectors travelled %.0f px" % [scene_name, ", ".join(seen), travelled]
	if px.count > 0:
		line += "; error mean %.4f px, max %.4f px" % [px.mean(), px.worst]
	if rad.count > 0:
		line += "; look-at error mean %.5f rad, max %.5f rad" % [rad.mean(), rad.worst]
	if mirror_worst >= 0.0:
		line += "; mirror worst %.6f px" % mirror_worst
	if not springs.is_empty():
		line += "; springs: deviation max %.3f rad, rotation step max %.4f rad/frame, at turns %.4f" % [spring_worst, spring_step.worst, spring_turn_step]
		if spring_step.count == 0:
			problems.append("no spring step was measured")
		# A turn carries the swing over mirrored (no whip: a whip swings a bone across, about PI), and the springs
		# then feel the turn's own motion like any frame's: the head snapping to the other side, the feet still
		# planted where they were. So a turn may move a bone somewhat more than a walking frame, not whip it.
		elif spring_turn_step > TURN_STEP_FACTOR * spring_step.worst + 1e-3:
			problems.append("a turn whipped the springs: %.4f rad in one frame, %.4f at most otherwise (%.1fx allowed)" % [spring_turn_step, spring_step.worst, TURN_STEP_FACTOR])
	var timed := maxi(frames_timed, 1)
	line += "; frame %.2f ms mean" % (frame_usec / 1000.0 / timed)
	var extra: String = scene.call("summary")
	if extra != "":
		line += "; " + extra
	if scene_name == "stress" and ClassDB.class_exists("Reach2DDebug"):
		line += " (debug build of the extension: not a speed comparison; `cargo xtask demo` and `cargo xtask bench` use the release build)"
	print(line)
	if px.count + rad.count == 0:
		problems.append("no IK node was measured")
	_result(scene_name, problems)
	scene.queue_free()
	await process_frame


func _result(scene_name: String, problems: Array[String]) -> void:
	if not check:
		return
	if problems.is_empty():
		print("TEST PASS demo::%s" % scene_name)
	else:
		print("TEST FAIL demo::%s: %s" % [scene_name, " | ".join(problems)])


## The node's error now, the error it is allowed, and its end effector.
func _measure(node: Node2D) -> Dictionary:
	if "effector_tips" in node:
		return _measure_rig(node)
	if node.get_class() == "PathChain2D":
		return _measure_path(node)
	var target: Node2D = node.get("target")
	var error: float = node.get("last_error")
	if target == null:
		return {"error": error, "effector": Vector2.ZERO, "problem": "no target"}
	var goal := target.global_position
	if node.get_class() == "LookAt2D":
		var bone: Bone2D = node.get("bone")
		var direction := bone.global_transform.basis_xform(Vector2.from_angle(bone.get_bone_angle()))
		var actual := absf(direction.angle_to(goal - bone.global_position))
		var problem := ""
		if error < 0.0:
			problem = "never solved"
		elif absf(actual - error) > 1e-3:
			problem = "last_error %.5f rad but the bone is %.5f rad off" % [error, actual]
		elif not node.call("has_angle_limits", 0) and error > LOOK_AT_TOLERANCE_RAD:
			problem = "looks %.5f rad away from its target" % error
		return {"error": error, "effector": goal, "problem": problem}
	var tip: Bone2D = node.get("tip_bone")
	var root_bone: Bone2D = node.get("root_bone")
	var effector := _bone_end(tip)
	var actual := effector.distance_to(goal)
	# Reach: the sum of the chain's segments, root joint to end effector.
	var reach := tip.global_position.distance_to(effector)
	var bone: Node = tip
	while bone != root_bone and bone.get_parent() is Bone2D:
		reach += (bone as Bone2D).global_position.distance_to((bone.get_parent() as Bone2D).global_position)
		bone = bone.get_parent()
	var beyond := maxf(0.0, root_bone.global_position.distance_to(goal) - reach)
	var tolerance: float = node.get("tolerance") if "tolerance" in node else 0.01
	var allowed := tolerance + beyond + SLACK_PX
	var problem := ""
	if error < 0.0:
		problem = "never solved"
	elif absf(actual - error) > SLACK_PX:
		problem = "last_error %.4f px but the effector is %.4f px from the target" % [error, actual]
	elif error > allowed:
		problem = "error %.4f px > allowed %.4f px (tolerance %.2f + %.2f beyond reach)" % [error, allowed, tolerance, beyond]
	return {"error": error, "effector": effector, "problem": problem}


## `_measure` for a FabrikRig2D: `last_error` must be the worst effector's real distance, within tolerance plus how
## far the farthest target lies beyond its own branch's reach; the effector is the first tip's end.
func _measure_rig(node: Node2D) -> Dictionary:
	var error: float = node.get("last_error")
	var tips: Array = node.get("effector_tips")
	var targets: Array = node.get("effector_targets")
	var root_bone: Bone2D = node.get("root_bone")
	var actual := 0.0
	var beyond := 0.0
	var first := Vector2.ZERO
	for k in tips.size():
		var tip: Bone2D = tips[k]
		var goal: Vector2 = (targets[k] as Node2D).global_position
		var effector := _bone_end(tip)
		if k == 0:
			first = effector
		actual = maxf(actual, effector.distance_to(goal))
		var reach := tip.global_position.distance_to(effector)
		var bone: Node = tip
		while bone != root_bone and bone.get_parent() is Bone2D:
			reach += (bone as Bone2D).global_position.distance_to((bone.get_parent() as Bone2D).global_position)
			bone = bone.get_parent()
		beyond = maxf(beyond, root_bone.global_position.distance_to(goal) - reach)
	var allowed: float = node.get("tolerance") + beyond + SLACK_PX
	var problem := ""
	if error < 0.0:
		problem = "never solved"
	elif absf(actual - error) > SLACK_PX:
		problem = "last_error %.4f px but the worst effector is %.4f px from its target" % [error, actual]
	elif error > allowed:
		problem = "error %.4f px > allowed %.4f px" % [error, allowed]
	return {"error": error, "effector": first, "problem": problem}


## `_measure` for a PathChain2D: every joint (bone origins, then the tip's end, unless the tip lies along the curve's
## tangent) within PATH_TOLERANCE_PX of the curve (its closest baked point), and `last_error` too; the effector is
## the tip's end.
func _measure_path(node: Node2D) -> Dictionary:
	var error: float = node.get("last_error")
	var path: Path2D = node.get("path")
	var bones := _chain_bones(node)
	var joints: Array[Vector2] = []
	for b in bones:
		joints.append(b.global_position)
	var end := _bone_end(bones[-1])
	if not node.get("tip_follows_tangent"):
		joints.append(end)
	var actual := 0.0
	for joint in joints:
		var closest := path.to_global(path.curve.get_closest_point(path.to_local(joint)))
		actual = maxf(actual, closest.distance_to(joint))
	var problem := ""
	if error < 0.0:
		problem = "never solved"
	elif actual > PATH_TOLERANCE_PX or error > PATH_TOLERANCE_PX:
		problem = "a joint is %.4f px off the curve (last_error %.4f px; allowed %.2f)" % [actual, error, PATH_TOLERANCE_PX]
	return {"error": actual, "effector": end, "problem": problem}


## The Bone2D chain of a node with root_bone and tip_bone, root first.
func _chain_bones(node: Node2D) -> Array[Bone2D]:
	var out: Array[Bone2D] = []
	var root_bone: Bone2D = node.get("root_bone")
	var bone: Node = node.get("tip_bone")
	while bone is Bone2D:
		out.push_front(bone)
		if bone == root_bone:
			break
		bone = bone.get_parent()
	return out


func _bone_end(b: Bone2D) -> Vector2:
	return b.global_transform * (Vector2.from_angle(b.get_bone_angle()) * b.get_length())


## Renders `scene_name` after a scripted warm-up and saves DIR/<scene>.png; a blank render is a failure.
func _screenshot(scene_name: String) -> void:
	var scene := _instance(scene_name)
	if scene == null:
		print("TEST FAIL screenshot::%s: cannot load the scene" % scene_name)
		failed_screens += 1
		return
	for frame in SCREENSHOT_FRAMES:
		await process_frame
	await RenderingServer.frame_post_draw
	var image := root.get_texture().get_image()
	var path := screenshot_dir.path_join("%s.png" % scene_name)
	var colours := {}
	for y in range(0, image.get_height(), 12):
		for x in range(0, image.get_width(), 12):
			colours[image.get_pixel(x, y).to_rgba32()] = true
	var background := image.get_pixel(image.get_width() / 2, 3)
	var clear: Color = ProjectSettings.get_setting("rendering/environment/defaults/default_clear_color")
	var problems: Array[String] = []
	if colours.size() < 16:
		problems.append("only %d distinct colours: a blank render" % colours.size())
	if _colour_distance(background, clear) > 0.08:
		problems.append("the top middle pixel is %s, not the background %s" % [background, clear])
	var err := image.save_png(path)
	if err != OK:
		problems.append("cannot save %s (error %d)" % [path, err])
	print("screenshot %s: %dx%d, %d distinct colours" % [path, image.get_width(), image.get_height(), colours.size()])
	if problems.is_empty():
		print("TEST PASS screenshot::%s" % scene_name)
	else:
		failed_screens += 1
		print("TEST FAIL screenshot::%s: %s" % [scene_name, " | ".join(problems)])
	scene.queue_free()
	await process_frame


## Renders `scene_name` after the screenshot's warm-up and saves ANIMATION_FRAMES frames as raw RGBA8 bytes
## (ANIMATION_SIZE) in DIR/<scene>_<k>.rgba, for `cargo xtask screenshots --animated` to encode.
func _animate(scene_name: String) -> void:
	var scene := _instance(scene_name)
	if scene == null:
		print("TEST FAIL animation::%s: cannot load the scene" % scene_name)
		failed_screens += 1
		return
	for frame in SCREENSHOT_FRAMES:
		await process_frame
	for k in ANIMATION_FRAMES:
		for frame in ANIMATION_STEP:
			await process_frame
		await RenderingServer.frame_post_draw
		var image := root.get_texture().get_image()
		image.resize(ANIMATION_SIZE.x, ANIMATION_SIZE.y, Image.INTERPOLATE_LANCZOS)
		image.convert(Image.FORMAT_RGBA8)
		var file := FileAccess.open(animation_dir.path_join("%s_%03d.rgba" % [scene_name, k]), FileAccess.WRITE)
		file.store_buffer(image.get_data())
		file.close()
	print("animation %s: %d frames of %dx%d" % [scene_name, ANIMATION_FRAMES, ANIMATION_SIZE.x, ANIMATION_SIZE.y])
	scene.queue_free()
	await process_frame


func _colour_distance(a: Color, b: Color) -> float:
	return maxf(maxf(absf(a.r - b.r), absf(a.g - b.g)), absf(a.b - b.b))


class Stats:
	var count := 0
	var total := 0.0
	var worst := 0.0

	func add(value: float) -> void:
		count += 1
		total += value
		worst = maxf(worst, value)

	func mean() -> float:
		return total / maxi(count, 1)
