-- A PD controller holding the pendulum upright. After every converged step it reads the node's
-- position and angular velocity, and sets the deck variable `u` that the couple's string drive
-- reads in the next step.
Kp = 40.0   -- N m/rad (above the destabilising m g L = 9.81 N m/rad)
Kd = 8.0    -- N m s/rad

mbdyn.on("after_step", function(t)
  local n = mbdyn.node(1)
  local theta = math.atan(n.X[1], n.X[3])   -- angle from the upward vertical, about y
  mbdyn.set("u", -Kp * theta - Kd * n.W[2])
end)
