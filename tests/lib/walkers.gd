## Creatures and ground for the stepper's tests on creatures nobody drew (`test_random_creatures.gd`,
## `test_leg_stepper_reach.gd`): a leg's joints from its lengths, and ground along a height profile.


## The point at distance `a` from `p` and `b` from `q`, on the `side` (+1 / -1) of the line from p to q (a knee).
static func apex(p: Vector2, q: Vector2, a: float, b: float, side: float) -> Vector2:
	var d := p.distance_to(q)
	var dir := (q - p) / d
	var x := (a * a - b * b + d * d) / (2.0 * d)
	return p + dir * x + dir.orthogonal() * side * sqrt(maxf(a * a - x * x, 0.0))


## A StaticBody2D under `parent` whose top follows `profile` (points left to right, y down; a riser is two points at
## one x) down to `bottom`, one convex piece per stretch (no polygon decomposition, no holes), its points
## `origin + (x * facing, y)`: mirrored across `origin` with `facing` -1.
static func ground(parent: Node, profile: PackedVector2Array, bottom: float, origin := Vector2.ZERO, facing := 1.0) -> StaticBody2D:
	var body := StaticBody2D.new()
	for k in profile.size() - 1:
		var a := profile[k]
		var b := profile[k + 1]
		if b.x - a.x < 0.01:
			continue
		var piece := PackedVector2Array([a, b, Vector2(b.x, bottom), Vector2(a.x, bottom)])
		for p in piece.size():
			piece[p] = origin + Vector2(piece[p].x * facing, piece[p].y)
		if facing < 0.0:
			piece.reverse()
		var shape := CollisionPolygon2D.new()
		shape.polygon = piece
		body.add_child(shape)
	parent.add_child(body)
	return body
