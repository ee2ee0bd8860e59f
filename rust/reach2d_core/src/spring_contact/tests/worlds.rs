//! Worlds the contact tests collide with: axis-aligned boxes, a world that counts its queries, a broken one.

use glam::Vec2;

use crate::spring_contact::*;

/// Axis-aligned boxes; a circle is taken as its centre against the box grown by the radius.
pub(super) struct Boxes(pub(super) Vec<(Vec2, Vec2)>);

impl Boxes {
    fn grown(&self, radius: f32) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        self.0.iter().map(move |&(lo, hi)| (lo - Vec2::splat(radius), hi + Vec2::splat(radius)))
    }
    pub(super) fn mirrored(&self) -> Self {
        Self(self.0.iter().map(|&(lo, hi)| (Vec2::new(-hi.x, lo.y), Vec2::new(-lo.x, hi.y))).collect())
    }
}

fn inside(p: Vec2, lo: Vec2, hi: Vec2) -> bool {
    p.cmpgt(lo).all() && p.cmplt(hi).all()
}

impl SpringCollider for Boxes {
    fn sweep(&mut self, from: Vec2, motion: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        let mut best: Option<(f32, Vec2)> = None;
        for (lo, hi) in self.grown(radius) {
            if inside(from, lo, hi) {
                continue;
            }
            let (mut enter, mut exit, mut normal) = (f32::NEG_INFINITY, 1.0f32, Vec2::ZERO);
            for axis in 0..2 {
                let (f, m, l, h) = (from[axis], motion[axis], lo[axis], hi[axis]);
                if m == 0.0 {
                    if f < l || f > h {
                        exit = -1.0;
                    }
                    continue;
                }
                let (t0, t1) = ((l - f) / m, (h - f) / m);
                let (near, far, n) = if t0 < t1 { (t0, t1, -1.0) } else { (t1, t0, 1.0) };
                if near > enter {
                    enter = near;
                    normal = Vec2::ZERO;
                    normal[axis] = n;
                }
                exit = exit.min(far);
            }
            if (0.0..=exit).contains(&enter) && normal != Vec2::ZERO && best.is_none_or(|(t, _)| enter < t) {
                best = Some((enter, normal));
            }
        }
        best.map(|(t, normal)| (from + motion * t - normal * radius, normal))
    }

    fn anything_near(&mut self, centre: Vec2, radius: f32) -> bool {
        self.grown(radius).any(|(lo, hi)| centre.cmpge(lo).all() && centre.cmple(hi).all())
    }

    fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        let (&(lo, hi), (glo, ghi)) = self.0.iter().zip(self.grown(radius)).find(|(_, (l, h))| inside(at, *l, *h))?;
        let faces = [
            (at.x - glo.x, Vec2::new(lo.x, at.y), -Vec2::X),
            (ghi.x - at.x, Vec2::new(hi.x, at.y), Vec2::X),
            (at.y - glo.y, Vec2::new(at.x, lo.y), -Vec2::Y),
            (ghi.y - at.y, Vec2::new(at.x, hi.y), Vec2::Y),
        ];
        let nearest = faces.iter().min_by(|a, b| a.0.total_cmp(&b.0))?;
        Some((nearest.1, nearest.2))
    }
}

pub(super) fn floor_world() -> Boxes {
    // A floor whose top is at y = 100, from x = -400 to 400.
    Boxes(vec![(Vec2::new(-400.0, 100.0), Vec2::new(400.0, 140.0))])
}

/// Counts the queries a world answers.
pub(super) struct Counted(pub(super) Boxes, pub(super) u32);

impl SpringCollider for Counted {
    fn sweep(&mut self, from: Vec2, motion: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        self.1 += 1;
        self.0.sweep(from, motion, radius)
    }
    fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        self.1 += 1;
        self.0.overlap(at, radius)
    }
    fn anything_near(&mut self, centre: Vec2, radius: f32) -> bool {
        self.1 += 1;
        self.0.anything_near(centre, radius)
    }
}

/// A world that answers with NaN and nonsense.
pub(super) struct Broken;

impl SpringCollider for Broken {
    fn sweep(&mut self, _: Vec2, _: Vec2, _: f32) -> Option<(Vec2, Vec2)> {
        Some((Vec2::new(f32::NAN, 0.0), Vec2::new(f32::NAN, 0.0)))
    }
    fn overlap(&mut self, _: Vec2, _: f32) -> Option<(Vec2, Vec2)> {
        Some((Vec2::new(f32::INFINITY, 0.0), Vec2::Y))
    }
}
