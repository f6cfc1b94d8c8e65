//! Fault injection: a proxy drops, duplicates and flips bytes in both directions (seeded).

mod common;

use common::*;
use firmware_loader::host::{Client, ClientOptions};
use firmware_loader::image::Upload;
use firmware_loader::port::{mem_pipe, FaultyTransport};
use firmware_loader::protocol::LoadState;
use firmware_loader::server::ServeOptions;
use std::time::Duration;

fn noisy(
    rate: f64,
    seed: u64,
) -> (
    Client<FaultyTransport<firmware_loader::port::MemPort>>,
    Served,
) {
    let (host, dev) = mem_pipe(115_200);
    let served = serve_on(dev, ServeOptions::default());
    let opts = ClientOptions {
        // The in-memory device answers in microseconds; a short wait keeps 200 uploads quick.
        timeout: Duration::from_millis(8),
        retries: 12,
        run_timeout: Duration::from_millis(100),
        min_chunk: 16,
    };
    (
        Client::new(FaultyTransport::new(host, rate, seed), opts),
        served,
    )
}

/// The active image, if any, is exactly one of the uploaded images, and its STATUS CRC says which.
/// Returns the index of the active image.
fn check_active(served: &Served, images: &[Upload]) -> Option<usize> {
    let dev = served.device.lock().unwrap();
    let status = dev.status();
    let Some(active) = dev.active_image() else {
        assert_ne!(status.state, LoadState::Valid);
        assert_eq!(status.active_crc, 0);
        return None;
    };
    assert_eq!(status.state, LoadState::Valid);
    let content = [
        active.program,
        active.constants,
        active.textures,
        active.maps,
    ]
    .concat();
    let i = images
        .iter()
        .rposition(|u| u.regions.concat() == content)
        .unwrap_or_else(|| {
            panic!("the active image is none of the uploaded ones (STATUS {status:?})")
        });
    assert_eq!(status.active_crc, image_crc(&images[i]));
    Some(i)
}

#[test]
fn one_percent_byte_faults_upload_complete_and_verify() {
    let (mut c, served) = noisy(0.01, 0x5EED_0001);
    let mut images = Vec::new();
    let mut completed = 0;
    for n in 0..200u64 {
        images.push(image(1000 + n, [256, 96, 32]));
        let img = images.last().unwrap();
        let result = c.upload(img, &mut |_, _| {});
        let active = check_active(&served, &images);
        if let Ok(report) = result {
            completed += 1;
            assert_eq!(report.crc, image_crc(img));
            assert_eq!(
                active,
                Some(images.len() - 1),
                "upload {n} reported success"
            );
        }
    }
    let f = c.transport_mut().counts;
    println!(
        "1% faults: {completed}/200 uploads completed; injected {} drops, {} duplicates, {} flips; {} attempts for {} requests",
        f.dropped, f.duplicated, f.flipped, c.stats.attempts, c.stats.requests
    );
    assert!(
        f.dropped > 100 && f.duplicated > 100 && f.flipped > 100,
        "{f:?}"
    );
    assert!(
        completed >= 198,
        "only {completed} of 200 uploads completed"
    );
}

fn never_corrupt(rate: f64, seed: u64, rounds: u64) -> [u32; 4] {
    let (mut c, served) = noisy(rate, seed);
    c.opts.min_chunk = 8;
    let mut images = Vec::new();
    let mut last_active = None;
    // How many rounds ended in each loader state (NoImage, Uploading, Valid, Failed).
    let mut ended = [0u32; 4];
    for n in 0..rounds {
        images.push(image(seed + n, [128, 48, 0]));
        // Every fourth upload runs on a clean line, so there is an active image to lose.
        let clean = n % 4 == 0;
        c.transport_mut().set_rate(if clean { 0.0 } else { rate });
        // A clean upload must not fail because the device thread was not scheduled in time.
        c.opts.timeout = Duration::from_millis(if clean { 500 } else { 8 });
        let result = c.upload(images.last().unwrap(), &mut |_, _| {});
        if clean {
            assert!(result.is_ok(), "clean upload {n}: {result:?}");
        }
        let active = check_active(&served, &images);
        if result.is_ok() {
            assert_eq!(active, Some(images.len() - 1));
        }
        // An image never comes back once a newer one was active.
        if let (Some(a), Some(b)) = (last_active, active) {
            assert!(b >= a, "image {b} active after image {a}");
        }
        last_active = active.or(last_active);
        ended[served.device.lock().unwrap().status().state as usize] += 1;
    }
    println!(
        "{:.0}% faults: rounds ended NoImage/Uploading/Valid/Failed = {ended:?}; the active image was always intact",
        rate * 100.0
    );
    ended
}

#[test]
fn five_percent_never_corrupts_the_active_image() {
    let ended = never_corrupt(0.05, 0x5EED_0005, 40);
    // The interesting case happened: uploads cut off after BEGIN left no runnable image.
    assert!(ended[1] > 0, "{ended:?}");
}

#[test]
fn twenty_percent_never_corrupts_the_active_image() {
    never_corrupt(0.20, 0x5EED_0020, 25);
}
