-- The crank's angular velocity: a smooth start from rest to OMEGA over T_UP seconds, then constant.
OMEGA = 1.0   -- rad/s
T_UP = 1.0    -- s

function crank_rate(t)
  if t >= T_UP then return OMEGA end
  return 0.5 * OMEGA * (1 - math.cos(math.pi * t / T_UP))
end

function crank_acceleration(t)
  if t >= T_UP then return 0 end
  return 0.5 * OMEGA * math.pi / T_UP * math.sin(math.pi * t / T_UP)
end
