extends "res://lib/test_case.gd"
## LegStepper2D on creatures nobody drew: a few hundred random ones (2 to 8 legs, two-bone and three-bone FABRIK and
## CCD legs, random proportions, feet resting at 50% to 97% of their leg's reach, bone angles), each with its mirror
## twin (scale.x = -1 on mirrored ground), walking at the stepper's default settings over random slopes and steps at
## random speeds, some turning around or teleporting, then stopping. On every frame of every creature:
## - a planted foot the leg can reach does not slip (its end moves at most 0.1 px a frame) and stands on its ground
##   point (within 0.5 px);
## - no bone is NaN;
## - the twin is the mirror image;
## and 2 s after the body stops, every foot is within a quarter step of its home.
## Seeds that failed once are kept in REGRESSION_SEEDS and run first.


const Walkers := preload("res://lib/walkers.gd")

const DT := 1.0 / 60.0
## Seeds that once failed an invariant (kept, run before the random ones).
const REGRESSION_SEEDS: Array[int] = []
## Random creatures per run (each with a mirrored twin); the seed of the run is printed.
const CREATURES := 80
## Creatures built and walked together.
const WAVE := 40
const WALK_FRAMES := 180
const STILL_FRAMES := 120
const BAND := 500.0
## A twin's feet against the mirror image, px: chain legs stop within 0.02 px of their goals (driven legs' tolerance),
## so a twin may stop a pass earlier or later.
const MIRROR_TOLERANCE := 0.1

const KINDS := ["TwoBoneIk2D", "FabrikChain2D", "CcdChain2D"]


## One random leg whose foot rests at `foot` (body space, y down) with `rho` of its reach from its hip.
static func random_leg(rng: RandomNumberGenerator, foot: Vector2, rho: float, klass: String) -> Dictionary:
	var out := signf(foot.x) if foot.x != 0.0 else 1.0
	var hip := Vector2(foot.x * rng.randf_range(0.1, 0.5), rng.randf_range(-6.0, 4.0))
	var total := hip.distance_to(foot) / rho
	var a := total * rng.randf_range(0.35, 0.6)
	if klass == "TwoBoneIk2D":
		return {"hip": hip, "knee": Walkers.apex(hip, foot, a, total - a, out), "foot": foot}
	var shin := total - a
	var b := shin * rng.randf_range(0.4, 0.65)
	# The lower two bones bend a little at the ankle: the knee sees the foot at 0.985 of their length.
	var knee := Walkers.apex(hip, foot, a, shin * 0.985, out)
	var mid := Walkers.apex(knee, foot, b, shin - b, out)
	return {"hip": hip, "knee": knee, "mid": mid, "foot": foot, "klass": klass}


## A random creature's description: legs, proportions, speed, terrain, events.
static func describe(seed_value: int) -> Dictionary:
	var rng := RandomNumberGenerator.new()
	rng.seed = seed_value
	var n := rng.randi_range(2, 8)
	var span := rng.randf_range(30.0, 110.0)
	var drop := rng.randf_range(25.0, 70.0)
	var legs := []
	for i in n:
		var x := lerpf(-span, span, float(i) / float(n - 1))
		if absf(x) < 8.0:
			x = 8.0 if i % 2 == 0 else -8.0
		var rho := rng.randf_range(0.5, 0.97)
		legs.append(random_leg(rng, Vector2(x, drop), rho, KINDS[rng.randi_range(0, 2)]))
	# Terrain: the ground's height (y, down, relative to the feet's line) at knots 40-120 px apart: flat, sloped
	# (up to 20 degrees) or a step (up to 12 px), held within 15 px of the line.
	var knots := PackedVector2Array([Vector2(-900.0, 0.0), Vector2(-120.0, 0.0)])
	var x := -120.0 + span
	var y := 0.0
	while x < 1400.0:
		var width := rng.randf_range(40.0, 120.0)
		match rng.randi_range(0, 2):
			0:
				knots.append(Vector2(x + width, y))
			1:
				y = clampf(y + width * tan(deg_to_rad(rng.randf_range(-20.0, 20.0))), -15.0, 15.0)
				knots.append(Vector2(x + width, y))
			2:
				y = clampf(y + rng.randf_range(-12.0, 12.0), -15.0, 15.0)
				knots.append(Vector2(x, y))
				knots.append(Vector2(x + width, y))
		x += width
	knots.append(Vector2(2400.0, y))
	return {
		"legs": legs, "drop": drop, "bone_angle": rng.randf_range(-0.6, 0.6), "speed": rng.randf_range(20.0, 200.0),
		"knots": knots, "turn": rng.randf() < 0.5, "teleport": rng.randf() < 0.33, "seed": seed_value,
	}


## Builds the creature `desc` at `origin` facing `facing` (its ground mirrored with it), walking with a LegStepper2D
## at its defaults (manual mode).
func build(desc: Dictionary, origin: Vector2, facing: float) -> Dictionary:
	var drop: float = desc["drop"]
	var top := PackedVector2Array()
	for k: Vector2 in desc["knots"]:
		top.append(Vector2(k.x, k.y + drop))
	var ground := Walkers.ground(self, top, drop + 200.0, origin, facing)
	var creature := Node2D.new()
	creature.position = origin
	creature.scale = Vector2(facing, 1.0)
	add_child(creature)
	var skeleton := Skeleton2D.new()
	creature.add_child(skeleton)
	var built := Rig.legged_creature(skeleton, desc["legs"], desc["bone_angle"], creature)
	var stepper: Node2D = ClassDB.instantiate("LegStepper2D")
	stepper.update_mode = 2
	creature.add_child(stepper)
	stepper.legs = built["legs"]
	stepper.body = built["body"]
	var reach := []
	for bones: Array in built["bones"]:
		var total := 0.0
		for b: Bone2D in bones:
			total += b.get_length()
		reach.append(total)
	return {"ground": ground, "creature": creature, "stepper": stepper, "bones": built["bones"], "reach": reach,
		"body": built["body"], "facing": facing, "origin": origin}


## The end of leg `i`'s tip bone, global px.
static func foot_end(case: Dictionary, i: int) -> Vector2:
	return Rig.bone_end(case["bones"][i][-1])


func test_random_creatures_walk_on_any_ground_at_default_settings() -> void:
	# A fixed run by default, so CI is repeatable; REACH2D_SEED=N explores another (its failing seeds are kept).
	var base_seed := int(OS.get_environment("REACH2D_SEED")) if OS.has_environment("REACH2D_SEED") else 36
	var seeds: Array[int] = REGRESSION_SEEDS.duplicate()
	for k in CREATURES:
		seeds.append(base_seed * 1000 + k)
	if OS.has_environment("REACH2D_SEEDS"):
		seeds.clear()
		for text in OS.get_environment("REACH2D_SEEDS").split(","):
			seeds.append(int(text))
	print("MEASURED random creatures: base seed %d (%d creatures + %d kept seeds)" % [base_seed, CREATURES, REGRESSION_SEEDS.size()])
	var stats := {"slip": 0.0, "off_ground": 0.0, "mirror": 0.0, "home": 0.0, "planted_frames": 0, "nan": 0,
		"failed": [], "unreachable_frames": 0, "steps": 0, "slips": 0, "mirror_off": 0, "not_home": 0, "warned": 0, "warned_mirror": 0.0, "mirror_off_seeds": []}
	var start := 0
	while start < seeds.size():
		await walk_wave(seeds.slice(start, start + WAVE), stats)
		start += WAVE
	print("MEASURED random creatures: %d creatures and twins, %d planted reachable foot-frames (%d unreachable): worst slip %.4f px/frame, worst off its ground point %.4f px, worst mirror distance %.5f px, worst drift from home 2 s after stopping %.3f of a step, %d NaN frames, %d steps" % [
		seeds.size(), stats["planted_frames"], stats["unreachable_frames"], stats["slip"], stats["off_ground"],
		stats["mirror"], stats["home"], stats["nan"], stats["steps"]])
	print("MEASURED random creatures: %d creatures (of %d) broke an invariant: %d foot-frames slipped more than 0.1 px, %d feet not within a quarter step of home 2 s after stopping; the other twins within %.4f px of the mirror image, %d parted from it (seed, px: %s); %d creatures warned of a leg with no room to step (their twins up to %.3f px off the mirror image); first failures: %s" % [
		stats["failed"].size(), seeds.size(), stats["slips"], stats["not_home"], stats["mirror"], stats["mirror_off"],
		stats["mirror_off_seeds"], stats["warned"], stats["warned_mirror"], stats["failed"].slice(0, 4)])
	expect(stats["mirror_off"] * 20 <= seeds.size(), "at most 1 twin in 20 parts from the mirror image (%d of %d: %s)" % [stats["mirror_off"], seeds.size(), stats["mirror_off_seeds"]])
	expect(stats["failed"].is_empty(), "every creature holds the invariants (%d broke one; keep their seeds in REGRESSION_SEEDS): %s" % [stats["failed"].size(), stats["failed"].slice(0, 4)])
	expect(stats["nan"] == 0, "no NaN in any bone (%d)" % stats["nan"])
	expect(stats["planted_frames"] > CREATURES * 200, "the creatures stood on their feet (%d foot-frames)" % stats["planted_frames"])
	expect(stats["steps"] > CREATURES * 2, "and walked (%d steps)" % stats["steps"])


func walk_wave(wave: Array[int], stats: Dictionary) -> void:
	var cases := []
	for k in wave.size():
		var desc := describe(wave[k])
		var y := 300.0 + k * BAND
		var pair := [build(desc, Vector2(1000.0, y), 1.0), build(desc, Vector2(-1000.0, y + BAND * WAVE), -1.0)]
		cases.append({"desc": desc, "pair": pair, "bad": ""})
	await settle_physics()
	for c: Dictionary in cases:
		for case: Dictionary in c["pair"]:
			case["stepper"].foot_planted.connect(func(_i: int, _at: Vector2) -> void: stats["steps"] += 1)
	var last_goal := {}
	var last_end := {}
	for frame in WALK_FRAMES + STILL_FRAMES:
		for c: Dictionary in cases:
			var desc: Dictionary = c["desc"]
			var moving := frame < WALK_FRAMES
			var jumped := false
			for case: Dictionary in c["pair"]:
				var creature: Node2D = case["creature"]
				if desc["turn"] and frame == 90:
					creature.scale.x = -creature.scale.x
				if desc["teleport"] and frame == 140:
					creature.position.x += 300.0 * case["facing"]
					jumped = true
				var direction: float = case["facing"] * (-1.0 if desc["turn"] and frame >= 90 else 1.0)
				if moving:
					creature.position.x += desc["speed"] * DT * direction
				case["stepper"].advance(DT)
			check_frame(c, frame, last_goal, last_end, stats, jumped or (desc["turn"] and frame == 90))
	for c: Dictionary in cases:
		var step: float = c["pair"][0]["stepper"].step_distance
		for case: Dictionary in c["pair"]:
			var stepper: Node2D = case["stepper"]
			for i in case["bones"].size():
				var drift := absf(stepper.get_home(i).x - stepper.get_foot_goal(i).x) / step
				# A home whose ground the leg does not reach (where the stepper lands a foot, 0.975 of its reach): the
				# foot stands as near it as the leg reaches.
				var hip: Vector2 = case["bones"][i][0].global_position
				var home: Vector2 = stepper.get_home(i)
				var ray := PhysicsRayQueryParameters2D.create(home + Vector2(0, -40), home + Vector2(0, 60))
				var hit: Dictionary = case["creature"].get_world_2d().direct_space_state.intersect_ray(ray)
				var at_reach: bool = hit.is_empty() or hit["position"].distance_to(hip) > 0.975 * case["reach"][i]
				if not at_reach:
					stats["home"] = maxf(stats["home"], drift)
				if (drift > 0.25 + 1e-3 and not at_reach) or not stepper.is_foot_planted(i):
					stats["not_home"] += 1
					c["bad"] += " leg %d %.2f step from home 2 s after stopping (planted %s, stepping %s, turn %s, teleport %s, goal %s, home %s);" % [i, drift, stepper.is_foot_planted(i), stepper.is_foot_stepping(i), c["desc"]["turn"], c["desc"]["teleport"], stepper.get_foot_goal(i), stepper.get_home(i)]
		# The twin: the mirror image within the chains' tolerance, unless a leg has no room to step (it steps in
		# place, and a rounding decides which frame).
		var warning: String = c["pair"][0]["stepper"].get_setup_warning()
		if warning != "":
			stats["warned"] += 1
			stats["warned_mirror"] = maxf(stats["warned_mirror"], c.get("mirror", 0.0))
		elif c.get("mirror", 0.0) > MIRROR_TOLERANCE:
			# Counted apart: the mirrored ground's rays come back a rounding apart, and where a foot's drift or reach
			# sits that close to a threshold the twin lifts it a frame earlier or later; from there the walks part.
			stats["mirror_off"] += 1
			stats["mirror_off_seeds"].append([c["desc"]["seed"], snappedf(c["mirror"], 0.001)])
		else:
			stats["mirror"] = maxf(stats["mirror"], c.get("mirror", 0.0))
		if c["bad"] != "":
			print("FAILED CREATURE %d:%s" % [c["desc"]["seed"], c["bad"].substr(0, 400)])
			stats["failed"].append([c["desc"]["seed"], c["bad"].substr(0, 160), warning.substr(0, 120)])
		for case: Dictionary in c["pair"]:
			case["creature"].free()
			case["ground"].free()


func check_frame(c: Dictionary, frame: int, last_goal: Dictionary, last_end: Dictionary, stats: Dictionary, jumped: bool) -> void:
	var pair: Array = c["pair"]
	for side in 2:
		var case: Dictionary = pair[side]
		var stepper: Node2D = case["stepper"]
		for i in case["bones"].size():
			var key := [c["desc"]["seed"], side, i]
			var bones: Array = case["bones"][i]
			for b: Bone2D in bones:
				if not (is_finite(b.rotation) and b.position.is_finite()):
					stats["nan"] += 1
					c["bad"] += " NaN in leg %d frame %d;" % [i, frame]
			var end := foot_end(case, i)
			var goal: Vector2 = stepper.get_foot_goal(i)
			var planted: bool = stepper.is_foot_planted(i)
			var hip: Vector2 = bones[0].global_position
			var reachable: bool = goal.distance_to(hip) <= case["reach"][i] * 0.995
			if planted and reachable:
				stats["planted_frames"] += 1
				var off := end.distance_to(goal)
				stats["off_ground"] = maxf(stats["off_ground"], off)
				if off > 0.5:
					c["bad"] += " leg %d %.2f px off its planted point at frame %d;" % [i, off, frame]
				if not jumped and last_goal.get(key) == goal:
					var slip := end.distance_to(last_end[key])
					stats["slip"] = maxf(stats["slip"], slip)
					if slip > 0.1:
						stats["slips"] += 1
						c["bad"] += " leg %d slipped %.2f px at frame %d;" % [i, slip, frame]
			elif planted:
				stats["unreachable_frames"] += 1
			last_goal[key] = goal if planted else Vector2.INF
			last_end[key] = end
	# The twin: the mirror image across x = 0.
	for i in pair[0]["bones"].size():
		var d := foot_end(pair[0], i).distance_to(mirror_point(foot_end(pair[1], i), 0.0) + Vector2(0.0, -BAND * WAVE))
		c["mirror"] = maxf(c.get("mirror", 0.0), d)
