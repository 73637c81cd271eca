//! map_3d 0.1.7 (Apache-2.0, <https://github.com/gberrante/map_3d>, crates.io source of commit
//! 7e6b58d; Copyright Giovan Battista Errante): the whole crate but its tests, the geodetic,
//! ECEF, ECI, ENU, NED and AER conversions on an `Ellipsoid`, the sidereal time of a UTC date
//! and the haversine distance, copied from `src/lib.rs` with `#[fwdad::derive_frule]` on
//! every free function and on `impl Ellipsoid`, and `fwdad::Differentiable` added to
//! `Ellipsoid`'s derive list (a type passed to a rule needs a tangent type, even one
//! without floats: the clear error says so).
//!
//! The conversions are differentiated with respect to the coordinates: ECEF with respect to
//! latitude, longitude and height against the closed forms (the meridian and normal radii
//! of curvature), the inverse conversion's Jacobian against the inverse of the forward one,
//! azimuth, elevation and range against their gradients written out, the haversine distance
//! against the bearings at each end, the ECI rotation against its derivative; each in one
//! direction, in batches and at second order against central differences. Primals bit for
//! bit against the published crate (a dev-dependency).
//!
//! map_3d's licence is the Apache License, Version 2.0
//! (<http://www.apache.org/licenses/LICENSE-2.0>); the crate carries its full text.

mod common;

/// `src/lib.rs` of map_3d 0.1.7, up to its tests.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, deprecated)]
pub mod map_3d {
//! map_3d: geographic coordinates conversions

/// Returns the tuple (x,y,z) of coordinates in the ECEF system
/// with desired reference frame.
///
/// ## Inputs:
/// - lat = latitude [rad]
/// - lon = longitude [rad]
/// - alt = altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
#[fwdad::derive_frule]
pub fn geodetic2ecef(lat: f64, lon: f64, alt: f64, r_ellips: Ellipsoid) -> (f64, f64, f64) {
    let n = get_radius_normal(lat, r_ellips);
    let (major, minor, _, _) = r_ellips.parameters();

    let x = (n + alt) * lat.cos() * lon.cos();
    let y = (n + alt) * lat.cos() * lon.sin();
    let z = (n * (minor / major) * (minor / major) + alt) * lat.sin();

    (x, y, z)
}

/// Returns the tuple (azimuth,elevation,slant range) of coordinates in the AER system
///
/// ## Inputs:
/// - lat = input latitude [rad]
/// - lon = input longitude [rad]
/// - alt = input altitude [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - az = azimuth angle [rad] of input geodetic location from reference geodetic location
/// - el = elevation angle [rad] of input geodetic location from reference geodetic location
/// - slant_range = slant range [m] of input geodetic location from reference geodetic location
#[fwdad::derive_frule]
pub fn geodetic2aer(
    lat: f64,
    lon: f64,
    alt: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (e, n, u) = geodetic2enu(lat, lon, alt, lat0, lon0, alt0, r_ellips);
    let (az, el, slant_range) = enu2aer(e, n, u);

    (az, el, slant_range)
}

/// Returns the tuple (east,north,up) of coordinates in the ENU system
///
///  ## Inputs:
/// - lat = input latitude [rad]
/// - lon = input longitude [rad]
/// - alt = input altitude [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - e = east coordinate [m] of input geodetic location from reference geodetic location
/// - n = north coordinate [m] of input geodetic location from reference geodetic location
/// - u = up coordinate [m] of input geodetic location from reference geodetic location
#[fwdad::derive_frule]
pub fn geodetic2enu(
    lat: f64,
    lon: f64,
    alt: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x1, y1, z1) = geodetic2ecef(lat, lon, alt, r_ellips);
    let (x2, y2, z2) = geodetic2ecef(lat0, lon0, alt0, r_ellips);

    let (e, n, u) = uvw2enu(x1 - x2, y1 - y2, z1 - z2, lat0, lon0);

    (e, n, u)
}

/// Returns the tuple (north,east,down) of coordinates in the NED system
///
///  ## Inputs:
/// - lat = input latitude [rad]
/// - lon = input longitude [rad]
/// - alt = input altitude [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - n = north coordinate [m] of input geodetic location from reference geodetic location
/// - e = east coordinate [m] of input geodetic location from reference geodetic location
/// - d = down coordinate [m] of input geodetic location from reference geodetic location
#[fwdad::derive_frule]
pub fn geodetic2ned(
    lat: f64,
    lon: f64,
    alt: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let enu = geodetic2enu(lat, lon, alt, lat0, lon0, alt0, r_ellips);
    (enu.1, enu.0, -enu.2)
}

/// Returns the tuple (x,y,z) of coordinates in the ECEF system
///
/// ## Inputs:
/// - az = azimuth angle [rad]
/// - el = elevation angle [rad]
/// - slant_range = slant range [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
#[fwdad::derive_frule]
pub fn aer2ecef(
    az: f64,
    el: f64,
    slant_range: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x0, y0, z0) = geodetic2ecef(lat0, lon0, alt0, r_ellips);
    let (e, n, u) = aer2enu(az, el, slant_range);
    let (dx, dy, dz) = enu2uvw(e, n, u, lat0, lon0);
    (x0 + dx, y0 + dy, z0 + dz)
}

/// Returns the tuple (east,north,up) of coordinates in the ENU system
///
/// ## Inputs:
/// - az = azimuth angle [rad]
/// - el = elevation angle [rad]
/// - slant_range = slant range [m]
///
/// ## Outputs:
/// - e = east coordinate [m] of input location from reference geodetic location
/// - n = north coordinate [m] of input location from reference geodetic location
/// - u = up coordinate [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn aer2enu(az: f64, el: f64, slant_range: f64) -> (f64, f64, f64) {
    let r = slant_range * el.cos();
    (r * az.sin(), r * az.cos(), slant_range * el.sin())
}

/// Returns the tuple (x,y,z) of coordinates in the ECI system
///
/// ## Inputs:
/// - az = azimuth angle [rad]
/// - el = elevation angle [rad]
/// - slant_range = slant range [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - x = x ECI coordinate [m]
/// - y = y ECI coordinate [m]
/// - z = z ECI coordinate [m]
#[fwdad::derive_frule]
pub fn aer2eci(
    gst: f64,
    az: f64,
    el: f64,
    slant_range: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x1, y1, z1) = aer2ecef(az, el, slant_range, lat0, lon0, alt0, r_ellips);
    ecef2eci(gst, x1, y1, z1)
}

/// Returns the tuple (north,east,down) of coordinates in the NED system
///
/// ## Inputs:
/// - az = azimuth angle [rad]
/// - el = elevation angle [rad]
/// - slant_range = slant range [m]
///
/// ## Outputs:
/// - n = north coordinate [m] of input location from reference geodetic location
/// - e = east coordinate [m] of input location from reference geodetic location
/// - d = down coordinate [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn aer2ned(az: f64, el: f64, slant_range: f64) -> (f64, f64, f64) {
    let enu = aer2enu(az, el, slant_range);
    (enu.1, enu.0, -enu.2)
}

/// Returns the tuple (latitude,longitude,altitude) of coordinates in the Geodetic system
///
/// ## Inputs:
/// - az = azimuth angle [rad]
/// - el = elevation angle [rad]
/// - slant_range = slant range [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - lat = input latitude [rad]
/// - lon = input longitude [rad]
/// - alt = input altitude [m]
#[fwdad::derive_frule]
pub fn aer2geodetic(
    az: f64,
    el: f64,
    slant_range: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x, y, z) = aer2ecef(az, el, slant_range, lat0, lon0, alt0, r_ellips);
    ecef2geodetic(x, y, z, r_ellips)
}

/// Returns the tuple (u,v,w) of coordinates in the local vector system
///
/// ## Inputs:
/// - e = east coordinate [m] from reference geodetic location
/// - n = north coordinate [m] from reference geodetic location
/// - u = up coordinate [m] from reference geodetic location
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
///
/// ## Outputs:
/// - u = tangent vector component
/// - v = tangent vector component
/// - w = tangent vector component
#[fwdad::derive_frule]
pub fn enu2uvw(e: f64, n: f64, up: f64, lat0: f64, lon0: f64) -> (f64, f64, f64) {
    let t = lat0.cos() * up - lat0.sin() * n;

    let u = lon0.cos() * t - lon0.sin() * e;
    let v = lon0.sin() * t + lon0.cos() * e;
    let w = lat0.sin() * up + lat0.cos() * n;
    (u, v, w)
}

/// Returns the tuple (azimuth,elevation,slant range) of coordinates in the AER system
///
/// ## Inputs:
/// - e = east coordinate [m] from reference geodetic location
/// - n = north coordinate [m] from reference geodetic location
/// - u = up coordinate [m] from reference geodetic location
///
/// ## Outputs:
/// - az = azimuth angle [rad] of input location from reference geodetic location
/// - el = elevation angle [rad] of input location from reference geodetic location
/// - slant_range = slant range [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn enu2aer(e: f64, n: f64, u: f64) -> (f64, f64, f64) {
    let r = (e * e + n * n).sqrt();

    let slant_range = (r * r + u * u).sqrt();
    let el = u.atan2(r);
    let az = e.atan2(n).rem_euclid(2.0 * std::f64::consts::PI);

    (az, el, slant_range)
}

/// Returns the tuple (x,y,z) of coordinates in the ECEF system
///
/// ## Inputs:
/// - e = east coordinate [m] from reference geodetic location
/// - n = north coordinate [m] from reference geodetic location
/// - u = up coordinate [m] from reference geodetic location
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
#[fwdad::derive_frule]
pub fn enu2ecef(
    e: f64,
    n: f64,
    u: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x0, y0, z0) = geodetic2ecef(lat0, lon0, alt0, r_ellips);
    let (dx, dy, dz) = enu2uvw(e, n, u, lat0, lon0);

    (x0 + dx, y0 + dy, z0 + dz)
}

/// Returns the tuple (latitude,longitude,altitude) of coordinates in the Geodetic system
///
/// ## Inputs:
/// - e = east coordinate [m]  from reference geodetic location
/// - n = north coordinate [m]  from reference geodetic location
/// - u = up coordinate [m]  from reference geodetic location
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
/// ## Outputs:
/// - lat = latitude [rad]
/// - lon = longitude [rad]
/// - alt = altitude [m]
#[fwdad::derive_frule]
pub fn enu2geodetic(
    e: f64,
    n: f64,
    u: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x, y, z) = enu2ecef(e, n, u, lat0, lon0, alt0, r_ellips);
    let (lat, lon, alt) = ecef2geodetic(x, y, z, r_ellips);

    (lat, lon, alt)
}

/// Returns the tuple (x,y,z) of coordinates in the ECI system
///
/// ## Inputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
///
/// ## Outputs:
/// - x = x ECI coordinate [m]
/// - y = y ECI coordinate [m]
/// - z = z ECI coordinate [m]
#[fwdad::derive_frule]
pub fn ecef2eci(gst: f64, x: f64, y: f64, z: f64) -> (f64, f64, f64) {
    let arr = matmul3(transpose3(r3(gst)), [x, y, z]);
    (arr[0], arr[1], arr[2])
}

/// Returns the tuple (latitude,longitude,altitude) of coordinates in the Geodetic system
/// with desired reference frame. Returns NaN for lat, lon, alt if the input ECEF coordinates are at the center of the Earth.
///
/// ## Inputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
/// - r_ellips = reference ellipsoid, defaults to WGS84
///
/// ## Outputs:
/// - lat = latitude [rad]
/// - lon = longitude [rad]
/// - alt = altitude [m]
#[fwdad::derive_frule]
pub fn ecef2geodetic(x: f64, y: f64, z: f64, r_ellips: Ellipsoid) -> (f64, f64, f64) {
    let (major, minor, _, _) = r_ellips.parameters();

    let q = (x * x + y * y).sqrt();

    // Handle poles case where q is zero to avoid division by zero
    if q <= f64::EPSILON {
        if z > 0.0 {
            return (std::f64::consts::FRAC_PI_2, 0.0, z - minor);
        }
        if z < 0.0 {
            return (-std::f64::consts::FRAC_PI_2, 0.0, -z - minor);
        }
        return (f64::NAN, f64::NAN, f64::NAN); // Indeterminate case at the center of the Earth
    }

    let r = (x * x + y * y + z * z).sqrt();
    let e = (major * major - minor * minor).sqrt();
    let var = r * r - e * e;
    let u = (0.5 * var + 0.5 * (var * var + 4.0 * e * e * z * z).sqrt()).sqrt();

    let hu_e = (u * u + e * e).sqrt();

    // FIX: this should improve stability near poles.
    let mut beta = (hu_e * z).atan2(u * q);
    let cos_beta = beta.cos();
    if cos_beta.abs() > 1e-12 {
        let sin_beta = beta.sin();
        let eps = ((minor * u - major * hu_e + e * e) * sin_beta)
            / (major * hu_e / cos_beta - e * e * cos_beta);
        beta += eps;
    }

    let lat = (major / minor * beta.tan()).atan();
    let lon = y.atan2(x);

    let v1 = z - minor * beta.sin();
    let v2 = q - major * beta.cos();

    let inside = (x * x / major / major) + (y * y / major / major) + (z * z / minor / minor) < 1.0;
    let alt = if inside {
        -(v1 * v1 + v2 * v2).sqrt()
    } else {
        (v1 * v1 + v2 * v2).sqrt()
    };

    (lat, lon, alt)
}

/// Returns the tuple (east,north,up) of coordinates in the ENU system
///
/// ## Inputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - e = east coordinate [m] of input ECEF location from reference geodetic location
/// - n = north coordinate [m] of input ECEF location from reference geodetic location
/// - u = up coordinate [m] of input ECEF location from reference geodetic location
#[fwdad::derive_frule]
pub fn ecef2enu(
    x: f64,
    y: f64,
    z: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x0, y0, z0) = geodetic2ecef(lat0, lon0, alt0, r_ellips);
    let (e, n, u) = uvw2enu(x - x0, y - y0, z - z0, lat0, lon0);
    (e, n, u)
}

/// Returns the tuple (north,east,down) of coordinates in the NED system
///
/// ## Inputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - n = north coordinate [m] of input location from reference geodetic location
/// - e = east coordinate [m] of input location from reference geodetic location
/// - d = down coordinate [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn ecef2ned(
    x: f64,
    y: f64,
    z: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let enu = ecef2enu(x, y, z, lat0, lon0, alt0, r_ellips);
    (enu.1, enu.0, -enu.2)
}

/// Returns the tuple (east,north,up) of coordinates in the ENU system
///
/// ## Inputs:
/// - u = tangent vector component
/// - v = tangent vector component
/// - w = tangent vector component
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
///
/// ## Outputs:
/// - e = east coordinate [m] of input location from reference geodetic location
/// - n = north coordinate [m] of input location from reference geodetic location
/// - u = up coordinate [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn uvw2enu(u: f64, v: f64, w: f64, lat0: f64, lon0: f64) -> (f64, f64, f64) {
    let t = lon0.cos() * u + lon0.sin() * v;
    let e = -lon0.sin() * u + lon0.cos() * v;
    let n = -lat0.sin() * t + lat0.cos() * w;
    let up = lat0.cos() * t + lat0.sin() * w;
    (e, n, up)
}

/// Returns the tuple (azimuth,elevation,slant range) of coordinates in the AER system
///
/// ## Inputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - az = azimuth angle [rad] of input location from reference geodetic location
/// - el = elevation angle [rad] of input location from reference geodetic location
/// - slant_range = slant range [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn ecef2aer(
    x: f64,
    y: f64,
    z: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (e, n, u) = ecef2enu(x, y, z, lat0, lon0, alt0, r_ellips);
    let (az, el, slant_range) = enu2aer(e, n, u);

    (az, el, slant_range)
}

/// Returns the tuple (azimuth,elevation,slant range) of coordinates in the AER system
///  
/// ## Inputs:
/// - x = x ECI coordinate [m]
/// - y = y ECI coordinate [m]
/// - z = z ECI coordinate [m]
/// - lat = reference latitude [rad]
/// - lon = reference longitude [rad]
/// - alt = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - az = azimuth angle [rad] of input location from reference geodetic location
/// - el = elevation angle [rad] of input location from reference geodetic location
/// - slant_range = slant range [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn eci2aer(
    gst: f64,
    x: f64,
    y: f64,
    z: f64,
    lat: f64,
    lon: f64,
    alt: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    let (x, y, z) = eci2ecef(gst, x, y, z);
    let (az, el, slant_range) = ecef2aer(x, y, z, lat, lon, alt, r_ellips);
    (az, el, slant_range)
}

/// Returns the tuple (x,y,z) of coordinates in the ECEF system
///
/// ## Inputs:
/// - gst = greenwich sidereal time
/// - x = x ECI coordinate [m]
/// - y = y ECI coordinate [m]
/// - z = z ECI coordinate [m]
///
/// ## Outputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
#[fwdad::derive_frule]
pub fn eci2ecef(gst: f64, x: f64, y: f64, z: f64) -> (f64, f64, f64) {
    let arr = matmul3(r3(gst), [x, y, z]);
    (arr[0], arr[1], arr[2])
}

/// Returns the tuple (azimuth,elevation,slant range) of coordinates in the AER system
///
/// ## Inputs:
/// - n = north coordinate [m] of input location from reference geodetic location
/// - e = east coordinate [m] of input location from reference geodetic location
/// - d = down coordinate [m] of input location from reference geodetic location
///
/// ## Outputs:
/// - az = azimuth angle [rad] of input location from reference geodetic location
/// - el = elevation angle [rad] of input location from reference geodetic location
/// - slant_range = slant range [m] of input location from reference geodetic location
#[fwdad::derive_frule]
pub fn ned2aer(n: f64, e: f64, d: f64) -> (f64, f64, f64) {
    enu2aer(e, n, -d)
}

/// Returns the tuple (latitude,longitude,altitude) of coordinates in the Geodetic system
///
/// ## Inputs:
/// - n = north coordinate [m] of input location from reference geodetic location
/// - e = east coordinate [m] of input location from reference geodetic location
/// - d = down coordinate [m] of input location from reference geodetic location
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - lat = latitude [rad]
/// - lon = longitude [rad]
/// - alt = altitude [m]
#[fwdad::derive_frule]
pub fn ned2geodetic(
    n: f64,
    e: f64,
    d: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    enu2geodetic(e, n, -d, lat0, lon0, alt0, r_ellips)
}

/// Returns the tuple (x,y,z) of coordinates in the ECEF system
///
/// ## Inputs:
/// - n = north coordinate [m] from reference geodetic location
/// - e = east coordinate [m] from reference geodetic location
/// - d = down coordinate [m] from reference geodetic location
/// - lat0 = reference latitude [rad]
/// - lon0 = reference longitude [rad]
/// - alt0 = reference altitude [m]
/// - r_ellips = reference ellipsoid, defaults ref. frame is WGS84
///
/// ## Outputs:
/// - x = x ECEF coordinate [m]
/// - y = y ECEF coordinate [m]
/// - z = z ECEF coordinate [m]
#[fwdad::derive_frule]
pub fn ned2ecef(
    n: f64,
    e: f64,
    d: f64,
    lat0: f64,
    lon0: f64,
    alt0: f64,
    r_ellips: Ellipsoid,
) -> (f64, f64, f64) {
    enu2ecef(e, n, -d, lat0, lon0, alt0, r_ellips)
}

/// Returns the array result of 3-by-3-matrix that multiplies a 3-by-1 column array
#[fwdad::derive_frule]
pub fn matmul3(matrix: [f64; 9], col: [f64; 3]) -> [f64; 3] {
    [
        matrix[0] * col[0] + matrix[1] * col[1] + matrix[2] * col[2],
        matrix[3] * col[0] + matrix[4] * col[1] + matrix[5] * col[2],
        matrix[6] * col[0] + matrix[7] * col[1] + matrix[8] * col[2],
    ]
}

/// Returns the array representing a 3-by-3 rotation matrix of the input
#[fwdad::derive_frule]
pub fn r3(x: f64) -> [f64; 9] {
    [x.cos(), x.sin(), 0.0, -x.sin(), x.cos(), 0.0, 0.0, 0.0, 1.0]
}

/// Returns the array representing the transpose of the input 3-by-3 matrix
#[fwdad::derive_frule]
pub fn transpose3(x: [f64; 9]) -> [f64; 9] {
    [x[0], x[3], x[6], x[1], x[4], x[7], x[2], x[5], x[8]]
}

#[derive(Debug, Copy, Clone, fwdad::Differentiable)]
pub enum Ellipsoid {
    /// WGS84: GPS Ellipsoid frame  
    /// semi-major axis: 6378137.0 [m]  
    /// flattening: 1.0/298.2572235630
    WGS84,
    /// WGS72: semi-major axis: 6378135.0 [m]    
    /// flattening: 1.0/298.26
    WGS72,
    /// WGS66: semi-major axis: 6378145.0 [m]    
    /// flattening: 1.0/298.25
    WGS66,
    /// WGS60: semi-major axis: 6378165.0 [m]    
    /// flattening: 1.0/298.3
    WGS60,
    /// PZ90: Glonass Ellipsoid frame  
    /// semi-major axis: 6378136.0 [m]
    /// flattening: 1/298.257839303
    PZ90,
    /// BDC, also known as CGCS2000,
    /// is the reference frame used by the
    /// Beidou constellation.  
    /// Semi-major axis: 6378137.0 [m]
    /// flattening: 1/298.257222101
    BDC,
    /// GRS80 reference ellipsoid  
    /// semi-major axis: 6378137.0 [m]  
    /// flattening: 1.0/298.257222101
    GRS80,
    /// Bessel reference ellipsoid   
    /// semi-major axis: 6377397.155 [m]
    /// flattening: 1.0/299.1528128
    Bessel,
    /// Airy reference ellipsoid   
    /// semi-major axis: 6377563.396 [m]  
    /// flattening: 1.0/299.3249646
    Airy,
    /// International reference ellipsoid   
    /// semi-major axis: 6378388.0 [m]  
    /// flattening: 1.0/297.0
    International,
}

impl Default for Ellipsoid {
    fn default() -> Ellipsoid {
        Ellipsoid::WGS84
    }
}

#[fwdad::derive_frule]
impl Ellipsoid {
    /// Returns the tuple representing the Ellipsoid frame.
    ///
    /// ## Outputs:
    /// - tuple.0 = semi-major axis [m]
    /// - tuple.1 = semi-minor axis [m]
    /// - tuple.2 = flattening [-]
    /// - tuple.3 = squared eccentricity [rad^2]
    pub fn parameters(&self) -> (f64, f64, f64, f64) {
        let (major, flattening): (f64, f64) = match self {
            Ellipsoid::WGS84 => (6378137.0, 1.0 / 298.257223563),
            Ellipsoid::WGS72 => (6378135.0, 1.0 / 298.26),
            Ellipsoid::WGS66 => (6378145.0, 1.0 / 298.25),
            Ellipsoid::WGS60 => (6378165.0, 1.0 / 298.3),
            Ellipsoid::PZ90 => (6378136.0, 1.0 / 298.257839303),
            Ellipsoid::BDC => (6378137.0, 1.0 / 298.257222101),
            Ellipsoid::GRS80 => (6378137.0, 1.0 / 298.2572221009),
            Ellipsoid::Bessel => (6377397.155, 1.0 / 299.1528128),
            Ellipsoid::Airy => (6377563.396, 1.0 / 299.3249646),
            Ellipsoid::International => (6378388.0, 1.0 / 297.0),
        };

        let minor = major * (1.0 - flattening);
        let ecc_sq = ((major * major) - (minor * minor)) / (major * major);
        (major, minor, flattening, ecc_sq)
    }
}

/// Returns the normal radius based on given latitude
/// and desired reference frame
#[fwdad::derive_frule]
pub fn get_radius_normal(lat: f64, r_ellips: Ellipsoid) -> f64 {
    let (major, _, _, squared_eccentricity) = r_ellips.parameters();
    major / ((1.0 - squared_eccentricity * lat.sin() * lat.sin()).sqrt())
}

/// Returns the radians [rad] value of the decimal degree [deg] input
#[deprecated(
    since = "0.1.6",
    note = "conversion from degrees to radians is natively supported. Use value.to_radians(). See https://doc.rust-lang.org/std/primitive.f64.html#method.to_radians"
)]
#[fwdad::derive_frule]
pub fn deg2rad(x: f64) -> f64 {
    x.to_radians()
}

/// Returns the decimal degree [deg] value of the radians [rad] input
#[deprecated(
    since = "0.1.6",
    note = "conversion from radians to degrees is natively supported. Use value.to_degrees(). See https://doc.rust-lang.org/std/primitive.f64.html#method.to_degrees"
)]
#[fwdad::derive_frule]
pub fn rad2deg(x: f64) -> f64 {
    x.to_degrees()
}

/// Returns the GST time as f64
///
/// ## Input
/// UTC time defined as: [year,month,day,hour,minute,second]
///
/// ## Output
/// Gst time as f64
#[fwdad::derive_frule]
pub fn utc2gst(utc: [i32; 6]) -> f64 {
    let mut year = utc[0] as f64;
    let mut month = utc[1] as f64;
    let day = utc[2] as f64;
    let h = utc[3] as f64;
    let m = utc[4] as f64;
    let s = utc[5] as f64;

    if month < 3.0 {
        year -= 1.0;
        month += 12.0;
    }

    let a = (year / 100.0).trunc();

    let b = 2.0 - a + (a / 4.0).trunc();

    let c = ((s / 60.0 + m) / 60.0 + h) / 24.0;

    let jd = (365.25 * (year + 4716.0)).trunc() + (30.6001 * (month + 1.0)).trunc() + day + b
        - 1524.5
        + c;

    let t_ut1 = (jd - 2451545.0) / 36525.0;

    let gmst_sec = 67310.54841 + 3.164400184812866e+09 * t_ut1 + 0.093104 * t_ut1 * t_ut1
        - 6.2e-6 * t_ut1 * t_ut1 * t_ut1;

    (gmst_sec * 2.0 * std::f64::consts::PI / 86400.0).rem_euclid(2.0 * std::f64::consts::PI)
}

/// Return the round toward zero value of the input
#[deprecated(
    since = "0.1.7",
    note = "rounding toward zero is natively supported. Use value.trunc(). See https://doc.rust-lang.org/std/primitive.f64.html#method.trunc"
)]
#[fwdad::derive_frule]
pub fn fix(x: f64) -> f64 {
    let mut out = x;
    if out < 0.0 {
        out = x.ceil();
    } else {
        out = x.floor();
    }
    out
}

/// Earth radius (m)
pub const EARTH_RADIUS: f64 = 6371E3_f64;

/// Returns distance (m) between two decimal degrees coordinates::
/// coord1: (lat,lon), coord2: (lat, lon)
#[fwdad::derive_frule]
pub fn distance(coord1: (f64, f64), coord2: (f64, f64)) -> f64 {
    let dphi = coord2.0.to_radians() - coord1.0.to_radians();
    let d_lambda = coord2.1.to_radians() - coord1.1.to_radians();
    let a: f64 = (dphi / 2.0_f64).sin().powf(2.0_f64)
        + coord1.0.to_radians().cos()
            * coord2.0.to_radians().cos()
            * (d_lambda / 2.0_f64).sin().powf(2.0_f64);

    let a = a.clamp(0.0, 1.0); // Clamp a to the range [0, 1] to prevent numerical issues
    let c = 2.0_f64 * a.sqrt().atan2((1.0 - a).sqrt());
    EARTH_RADIUS * c
}
}

// ---------------------------------------------------------------------------------------
// The tests (not map_3d's).

#[cfg(test)]
mod tests {
    use super::map_3d::*;
    use fwdad::prelude::*;

    const WGS84_A: f64 = 6378137.0;
    const WGS84_F: f64 = 1.0 / 298.257223563;

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * want.abs().max(1.0),
            "{what}: {got}, want {want}"
        );
    }

    /// ECEF of a geodetic point `[lat, lon, alt]` on WGS84.
    #[derive_frule]
    fn ecef(p: &[f64]) -> [f64; 3] {
        let (x, y, z) = geodetic2ecef(p[0], p[1], p[2], Ellipsoid::WGS84);
        [x, y, z]
    }

    #[test]
    fn geodetic_to_ecef_against_the_radii_of_curvature() {
        // N = a / √(1 − e² sin²φ) (normal), M = a (1 − e²) / (1 − e² sin²φ)^{3/2} (meridian):
        // ∂/∂φ = (M + h)(−sinφ cosλ, −sinφ sinλ, cosφ), ∂/∂λ = (N + h) cosφ (−sinλ, cosλ, 0),
        // ∂/∂h = (cosφ cosλ, cosφ sinλ, sinφ).
        let e2 = WGS84_F * (2.0 - WGS84_F);
        for p in [[0.7, -1.3, 120.0], [-0.2, 2.9, -35.0], [1.4, 0.05, 8000.0]] {
            let (v, jac) = jacobian(ecef {}, &p);
            let (x, y, z) = ::map_3d::geodetic2ecef(p[0], p[1], p[2], ::map_3d::Ellipsoid::WGS84);
            for (k, want) in [x, y, z].into_iter().enumerate() {
                assert_eq!(v[k].to_bits(), want.to_bits(), "the published crate's ECEF");
            }
            let (phi, lam, h) = (p[0], p[1], p[2]);
            let w = 1.0 - e2 * phi.sin().powi(2);
            let n = WGS84_A / w.sqrt();
            let m = WGS84_A * (1.0 - e2) / w.powf(1.5);
            let want = [
                [
                    -(m + h) * phi.sin() * lam.cos(),
                    -(n + h) * phi.cos() * lam.sin(),
                    phi.cos() * lam.cos(),
                ],
                [
                    -(m + h) * phi.sin() * lam.sin(),
                    (n + h) * phi.cos() * lam.cos(),
                    phi.cos() * lam.sin(),
                ],
                [(m + h) * phi.cos(), 0.0, phi.sin()],
            ];
            for k in 0..3 {
                for j in 0..3 {
                    close(jac[(k, j)], want[k][j], 1e-12, &format!("∂ecef{k}/∂p{j}"));
                }
            }
        }
    }

    /// Geodetic `[lat, lon, alt]` of an ECEF point on WGS84.
    #[derive_frule]
    fn geodetic(x: &[f64]) -> [f64; 3] {
        let (lat, lon, alt) = ecef2geodetic(x[0], x[1], x[2], Ellipsoid::WGS84);
        [lat, lon, alt]
    }

    #[test]
    fn ecef_to_geodetic_inverts_the_forward_jacobian() {
        // ecef2geodetic is one corrected step of Bowring's iteration: exact to well below a
        // millimetre near the surface, so its Jacobian is the forward one's inverse.
        for p in [[0.7, -1.3, 120.0], [-0.2, 2.9, -35.0], [1.2, 0.4, 8000.0]] {
            let x = ecef(&p);
            let (g, jg) = jacobian(geodetic {}, &x);
            let (lat, lon, alt) =
                ::map_3d::ecef2geodetic(x[0], x[1], x[2], ::map_3d::Ellipsoid::WGS84);
            for (k, want) in [lat, lon, alt].into_iter().enumerate() {
                assert_eq!(
                    g[k].to_bits(),
                    want.to_bits(),
                    "the published crate's geodetic"
                );
            }
            let (_, je) = jacobian(ecef {}, &p);
            for i in 0..3 {
                for j in 0..3 {
                    let prod: f64 = (0..3).map(|k| jg[(i, k)] * je[(k, j)]).sum();
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((prod - want).abs() < 1e-9, "(J⁻¹ J)[{i}][{j}] = {prod}");
                }
            }
            // and against central differences of the plain conversion, with 1 m steps: the
            // height is rounded to about 1e-9 m (coordinates of 6e6 m), the curvature is
            // 1 / R, so truncation and rounding both stay below 1e-9.
            for j in 0..3 {
                let hstep = 1.0;
                let (mut a, mut b) = (x, x);
                a[j] += hstep;
                b[j] -= hstep;
                let (ga, gb) = (geodetic(&a), geodetic(&b));
                for k in 0..3 {
                    let fd = (ga[k] - gb[k]) / (2.0 * hstep);
                    assert!(
                        (jg[(k, j)] - fd).abs() <= 1e-7 * fd.abs() + 1e-9,
                        "∂geodetic{k}/∂x{j}: {} against {fd}",
                        jg[(k, j)]
                    );
                }
            }
        }
    }

    /// The slant range from a station to a point, in the point's geodetic coordinates.
    #[derive_frule]
    fn slant_range(p: &[f64]) -> f64 {
        geodetic2aer(p[0], p[1], p[2], 0.68, -1.29, 15.0, Ellipsoid::WGS84).2
    }

    /// The elevation of the point above the station's horizon.
    #[derive_frule]
    fn elevation(p: &[f64]) -> f64 {
        let (_, el, _) = geodetic2aer(p[0], p[1], p[2], 0.68, -1.29, 15.0, Ellipsoid::WGS84);
        el
    }

    #[test]
    fn slant_range_and_elevation_in_every_mode() {
        // The point is some 150 km from the station: the range changes by its size over
        // hundredths of a radian and tens of kilometres of height.
        let s = [0.01, 0.01, 1e4];
        crate::check_modes_scaled!(slant_range {}, slant_range, [0.7, -1.3, 1200.0], s);
        crate::check_modes_scaled!(elevation {}, elevation, [0.7, -1.3, 1200.0], s);
        let p = [0.7, -1.3, 1200.0];
        let want = ::map_3d::geodetic2aer(
            p[0],
            p[1],
            p[2],
            0.68,
            -1.29,
            15.0,
            ::map_3d::Ellipsoid::WGS84,
        );
        assert_eq!(slant_range(&p).to_bits(), want.2.to_bits());
        assert_eq!(elevation(&p).to_bits(), want.1.to_bits());
    }

    /// Azimuth, elevation and range of a point east, north and up of the station.
    #[derive_frule]
    fn aer(v: &[f64]) -> [f64; 3] {
        let (az, el, r) = enu2aer(v[0], v[1], v[2]);
        [az, el, r]
    }

    #[test]
    fn enu_to_aer_against_its_gradients() {
        // az = atan2(e, n): ∇ = (n, −e, 0) / ρ², ρ² = e² + n²; el = atan2(u, ρ):
        // ∇ = (−u e / ρ, −u n / ρ, ρ) / r², r² = ρ² + u²; ∇r = (e, n, u) / r.
        for v in [
            [300.0, 400.0, 50.0],
            [-1200.0, 25.0, 900.0],
            [5.0, -70.0, -3.0],
        ] {
            let (got, jac) = jacobian(aer {}, &v);
            let (az, el, r) = ::map_3d::enu2aer(v[0], v[1], v[2]);
            for (k, want) in [az, el, r].into_iter().enumerate() {
                assert_eq!(got[k].to_bits(), want.to_bits());
            }
            let [e, n, u] = v;
            let rho2 = e * e + n * n;
            let rho = rho2.sqrt();
            let r2 = rho2 + u * u;
            let want = [
                [n / rho2, -e / rho2, 0.0],
                [-u * e / (rho * r2), -u * n / (rho * r2), rho / r2],
                [e / r, n / r, u / r],
            ];
            for k in 0..3 {
                for j in 0..3 {
                    assert!(
                        (jac[(k, j)] - want[k][j]).abs() <= 1e-14 + 1e-12 * want[k][j].abs(),
                        "∂aer{k}/∂enu{j}: {} want {}",
                        jac[(k, j)],
                        want[k][j]
                    );
                }
            }
        }
    }

    /// The haversine distance between two points `[lat1, lon1, lat2, lon2]` in degrees.
    #[derive_frule]
    fn haversine(c: &[f64]) -> f64 {
        distance((c[0], c[1]), (c[2], c[3]))
    }

    #[test]
    fn haversine_distance_against_the_bearings() {
        // Moving an end by ds along the bearing θ from it towards the other end shortens the
        // distance by ds cos(0): ∂d/∂φ₂ = −R cos θ₂₁, ∂d/∂λ₂ = −R cos φ₂ sin θ₂₁, with θ₂₁
        // the initial bearing from point 2 to point 1 (angles in degrees: × π/180).
        let deg = std::f64::consts::PI / 180.0;
        let bearing = |p1: f64, l1: f64, p2: f64, l2: f64| {
            let (p1, l1, p2, l2) = (p1 * deg, l1 * deg, p2 * deg, l2 * deg);
            let y = (l2 - l1).sin() * p2.cos();
            let x = p1.cos() * p2.sin() - p1.sin() * p2.cos() * (l2 - l1).cos();
            y.atan2(x)
        };
        for c in [
            [40.64, -73.78, 51.47, -0.45],
            [-33.9, 151.2, 35.7, 139.7],
            [10.0, 20.0, 10.5, 20.3],
        ] {
            let (d, g) = gradient(haversine {}, &c);
            assert_eq!(
                d.to_bits(),
                ::map_3d::distance((c[0], c[1]), (c[2], c[3])).to_bits()
            );
            let t21 = bearing(c[2], c[3], c[0], c[1]);
            let t12 = bearing(c[0], c[1], c[2], c[3]);
            let r = EARTH_RADIUS * deg;
            let want = [
                -r * t12.cos(),
                -r * (c[0] * deg).cos() * t12.sin(),
                -r * t21.cos(),
                -r * (c[2] * deg).cos() * t21.sin(),
            ];
            for k in 0..4 {
                close(g[k], want[k], 1e-9, &format!("∂d/∂c{k}"));
            }
        }
        crate::check_modes_scaled!(
            haversine {},
            haversine,
            [40.64, -73.78, 51.47, -0.45],
            [10.0; 4]
        );
    }

    /// ECI → ECEF at a sidereal angle `gst`: a rotation about z.
    #[derive_frule]
    fn to_ecef(gst: f64, x: &[f64; 3]) -> [f64; 3] {
        let (a, b, c) = eci2ecef(gst, x[0], x[1], x[2]);
        [a, b, c]
    }

    #[test]
    fn eci_rotation_against_its_derivative() {
        // R₃(θ) x = (cosθ x + sinθ y, −sinθ x + cosθ y, z): d/dθ = (−sinθ x + cosθ y,
        // −cosθ x − sinθ y, 0).
        let x = [7.0e6, -1.2e6, 3.3e5];
        for th in [0.3, 2.0, 5.9] {
            let (v, d) = derivative(bind(to_ecef {}, (Var(0), &x)), th);
            let plain = ::map_3d::eci2ecef(th, x[0], x[1], x[2]);
            assert_eq!(v[0].to_bits(), plain.0.to_bits());
            assert_eq!(v[1].to_bits(), plain.1.to_bits());
            assert_eq!(v[2].to_bits(), plain.2.to_bits());
            let want = [
                -th.sin() * x[0] + th.cos() * x[1],
                -th.cos() * x[0] - th.sin() * x[1],
                0.0,
            ];
            for k in 0..3 {
                close(d[k], want[k], 1e-12, "d(R₃ x)/dθ");
            }
        }
    }

    /// ENU → geodetic → ENU around the station: the identity.
    #[derive_frule]
    fn enu_round_trip(v: &[f64]) -> [f64; 3] {
        let (lat, lon, alt) = enu2geodetic(v[0], v[1], v[2], 0.68, -1.29, 15.0, Ellipsoid::GRS80);
        let (e, n, u) = geodetic2enu(lat, lon, alt, 0.68, -1.29, 15.0, Ellipsoid::GRS80);
        [e, n, u]
    }

    #[test]
    fn enu_round_trip_has_the_identity_jacobian() {
        let v = [1500.0, -800.0, 120.0];
        let (got, jac) = jacobian(enu_round_trip {}, &v);
        for k in 0..3 {
            assert!((got[k] - v[k]).abs() < 1e-6);
            for j in 0..3 {
                let want = if j == k { 1.0 } else { 0.0 };
                assert!(
                    (jac[(k, j)] - want).abs() < 1e-9,
                    "({k}, {j}): {}",
                    jac[(k, j)]
                );
            }
        }
    }

    /// The sidereal angle of a UTC date: integer input, a constant; it compiles and runs.
    #[derive_frule]
    fn sidereal(x: f64) -> f64 {
        x * utc2gst([2024, 3, 20, 12, 30, 15])
    }

    #[test]
    fn sidereal_time_is_a_constant_factor() {
        let (v, d) = derivative(sidereal {}, 2.0);
        let g = ::map_3d::utc2gst([2024, 3, 20, 12, 30, 15]);
        assert_eq!(v.to_bits(), (2.0 * g).to_bits());
        assert_eq!(d.to_bits(), g.to_bits());
    }
}
