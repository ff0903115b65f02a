//! nginx serving `dist/` as a static host would (issue #24): Debian's nginx
//! with the server block the README's "Publishing" section shows
//! (`web/nginx.conf`), its `listen` and `root` filled in, in a config of its
//! own under `target/nginx/` (pid, logs and temporary files there too), so
//! it needs no system service and leaves nothing running: [`Nginx`] stops it
//! when dropped.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::root;

/// Debian's nginx binary.
pub const BINARY: &str = "/usr/sbin/nginx";

/// Debian's brotli module for precompressed files (`libnginx-mod-http-brotli-static`).
pub const BROTLI_MODULE: &str = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

/// A running nginx; stopped when dropped.
pub struct Nginx {
    child: Child,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
    dir: PathBuf,
}

impl Nginx {
    /// Starts nginx on a free port serving `dist`; returns once it answers.
    pub fn start(dist: &Path) -> Result<Nginx, String> {
        Nginx::start_on(dist, free_port()?)
    }

    /// Starts nginx on `port` serving `dist`; returns once it answers. Each
    /// port has its own folder under `target/nginx/`.
    pub fn start_on(dist: &Path, port: u16) -> Result<Nginx, String> {
        let dir = root().join(format!("target/nginx/{port}"));
        std::fs::create_dir_all(dir.join("logs")).map_err(|e| format!("{}: {e}", dir.display()))?;
        let block_file = root().join("web/nginx.conf");
        let block = std::fs::read_to_string(&block_file)
            .map_err(|e| format!("{}: {e}", block_file.display()))?;
        let conf = config(&block, port, dist, &dir, crate::tools::is_root())?;
        let conf_file = dir.join("nginx.conf");
        std::fs::write(&conf_file, conf).map_err(|e| format!("{}: {e}", conf_file.display()))?;
        let child = Command::new(BINARY)
            .arg("-p")
            .arg(&dir)
            .arg("-e")
            .arg(dir.join("logs/error.log"))
            .arg("-c")
            .arg(&conf_file)
            .stdin(Stdio::null())
            .spawn()
            .map_err(|e| format!("{BINARY}: {e}"))?;
        let mut nginx = Nginx { child, port, dir };
        let t0 = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = nginx.child.try_wait() {
                return Err(format!(
                    "nginx exited ({status}) before it answered: {}",
                    nginx.errors()
                ));
            }
            if t0.elapsed() > Duration::from_secs(10) {
                return Err(format!("nginx did not answer in 10 s: {}", nginx.errors()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        println!(
            "nginx serves dist/ on http://127.0.0.1:{port} ({})",
            conf_file.display()
        );
        Ok(nginx)
    }

    /// The end of nginx's error log, for a failure message.
    fn errors(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("logs/error.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(5)..].join("\n")
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM to the master: it stops its workers and exits.
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0)).map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// A whole nginx config around the README's server block: its `listen` and
/// `root` lines replaced, Debian's MIME types, no daemon, every file nginx
/// writes under `dir`. Run as root, the workers stay root (a checkout under
/// /root is not readable by nginx's default user); without the brotli module,
/// its line is dropped.
fn config(
    block: &str,
    port: u16,
    dist: &Path,
    dir: &Path,
    root_user: bool,
) -> Result<String, String> {
    let mut out = String::new();
    let (mut listen, mut root) = (0, 0);
    for line in block.lines() {
        let t = line.trim_start();
        if t.starts_with("listen ") {
            listen += 1;
            out.push_str(&format!("    listen 127.0.0.1:{port};\n"));
        } else if t.starts_with("root ") {
            root += 1;
            out.push_str(&format!("    root {};\n", dist.display()));
        } else if t.starts_with("brotli_static ") && !Path::new(BROTLI_MODULE).exists() {
            out.push_str("    # brotli_static: module not installed\n");
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    if listen != 1 || root != 1 {
        return Err("web/nginx.conf must have one `listen` and one `root` line".into());
    }
    let module = if Path::new(BROTLI_MODULE).exists() {
        format!("load_module {BROTLI_MODULE};\n")
    } else {
        String::new()
    };
    let user = if root_user { "user root;\n" } else { "" };
    let d = dir.display();
    Ok(format!(
        "# Written by `cargo xtask` (xtask/src/nginx.rs) around web/nginx.conf.\n\
         {module}{user}daemon off;\n\
         worker_processes 2;\n\
         pid {d}/nginx.pid;\n\
         error_log {d}/logs/error.log;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n\
         include /etc/nginx/mime.types;\n\
         default_type application/octet-stream;\n\
         access_log off;\n\
         sendfile on;\n\
         client_body_temp_path {d}/client_body;\n\
         proxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\n\
         uwsgi_temp_path {d}/uwsgi;\n\
         scgi_temp_path {d}/scgi;\n\
         {out}}}\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_block_with_its_port_and_root() {
        let block = std::fs::read_to_string(root().join("web/nginx.conf")).unwrap();
        let conf = config(
            &block,
            4321,
            Path::new("/x/dist"),
            Path::new("/t/ng"),
            false,
        )
        .unwrap();
        assert!(conf.contains("    listen 127.0.0.1:4321;\n"), "{conf}");
        assert!(conf.contains("    root /x/dist;\n"), "{conf}");
        assert!(!conf.contains("/srv/"), "{conf}");
        assert!(
            conf.contains("try_files $uri $uri.html $uri/ =404;"),
            "{conf}"
        );
        assert!(conf.contains("pid /t/ng/nginx.pid;"), "{conf}");
        assert!(!conf.contains("user root"), "{conf}");
        assert!(config("server { }", 1, Path::new("/"), Path::new("/"), true).is_err());
    }
}
