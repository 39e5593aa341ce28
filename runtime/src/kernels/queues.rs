//! The session's two queues: which one runs a part of a pass, the fork and
//! the join of a plan's halves, and the waits of one half on the other's
//! launch events (a chain's, `fft/chain.rs`).

use ocl::Queue;

use super::{FieldKernels, PassPart};
use crate::error::{DeviceContext as _, Error, Result};

/// Commands enqueued on `waiter` from now on start after every command
/// enqueued on `other` so far (a marker on `other`, a barrier on `waiter`).
/// `other` is flushed: a marker the device has not been handed yet would hold
/// `waiter` until the next flush.
fn queue_waits_for(waiter: &Queue, other: &Queue) -> Result<()> {
    let marker = other.enqueue_marker::<&ocl::Event>(None).or_device(|| "cannot enqueue a marker".into())?;
    queue_waits_on(waiter, other, &marker)
}

/// Commands enqueued on `waiter` from now on start after `event`, a command
/// of `other`, which is flushed (a command of another queue in a wait list
/// must have been handed to the device).
fn queue_waits_on(waiter: &Queue, other: &Queue, event: &ocl::Event) -> Result<()> {
    other.flush().or_device(|| "cannot flush a queue".into())?;
    ocl::core::enqueue_barrier_with_wait_list(waiter.as_core(), Some(event), None::<&mut ocl::Event>, None)
        .map_err(ocl::Error::from)
        .or_device(|| "cannot enqueue a barrier".into())
}

/// Where the side queue's fork waits ([`FieldKernels::arm_fork`]).
pub(super) enum ForkEvent {
    /// On a marker enqueued on the session's queue at the fork.
    Idle,
    /// The next launch on the session's queue keeps its event.
    Armed,
    /// On this launch's event.
    Saved(ocl::Event),
}

impl FieldKernels {
    /// The queue that runs `part`: half 1 on the side queue, the rest on the session's.
    pub(super) fn queue_of(&self, part: PassPart) -> &Queue {
        match part {
            PassPart::Half { half: 1, .. } | PassPart::Quarter { index2: 1, .. } => &self.session.side_queue,
            _ => &self.session.queue,
        }
    }

    /// On NVIDIA, the next launch on the session's queue keeps its event, on
    /// which the next [`Self::fork`] makes the side queue wait instead of on
    /// a marker: a plan arms the fork just before the launch its halves
    /// follow, so that nothing else is enqueued between them.  (v41, H200,
    /// k = 8 at 2^20: the first half-launch starts 1.4 µs after that launch
    /// ends instead of 3.2 with the marker.)  A fork after a join (a layout
    /// change) finds nothing armed and takes the marker.
    pub fn arm_fork(&self) {
        if self.session.device.is_nvidia() {
            *self.fork_event.lock().expect("fork event") = ForkEvent::Armed;
        }
    }

    /// Before the first half-launch: the side queue waits for everything
    /// enqueued so far on the session's queue (on the armed launch's event,
    /// which is the last command there, or a marker).
    pub fn fork(&self) -> Result<()> {
        let saved = std::mem::replace(&mut *self.fork_event.lock().expect("fork event"), ForkEvent::Idle);
        match saved {
            ForkEvent::Saved(ev) => queue_waits_on(&self.session.side_queue, &self.session.queue, &ev),
            _ => self.queue_waits_for(&self.session.side_queue, &self.session.queue),
        }
    }

    /// After the last half-launch: the session's queue waits for everything
    /// enqueued so far on the side queue, so later commands see both halves.
    pub fn join(&self) -> Result<()> {
        self.queue_waits_for(&self.session.queue, &self.session.side_queue)
    }

    /// From now on (`on`) every launch keeps its event for
    /// [`Self::take_event`], on which a plan's chain of halves makes the other
    /// queue wait (`fft::chain`); `false` stops.
    pub fn keep_events(&self, on: bool) {
        *self.kept.lock().expect("kept events") = on.then_some(None);
    }

    /// The event of the last launch since [`Self::keep_events`].
    pub fn take_event(&self) -> Result<ocl::Event> {
        let mut kept = self.kept.lock().expect("kept events");
        kept.as_mut().and_then(Option::take).ok_or_else(|| Error::internal("no launch kept its event"))
    }

    /// Commands enqueued for half `half` (its queue, [`PassPart`]) from now on
    /// start after `event`, a launch of the other half's queue: on NVIDIA by
    /// a barrier on the event ([`queue_waits_on`]), elsewhere by the host
    /// waiting for it (as [`Self::join`]: PoCL's barriers between queues
    /// passed early).
    pub fn half_waits_on(&self, half: u32, event: &ocl::Event) -> Result<()> {
        let (waiter, other) = match half {
            1 => (&self.session.side_queue, &self.session.queue),
            _ => (&self.session.queue, &self.session.side_queue),
        };
        if self.session.device.is_nvidia() {
            queue_waits_on(waiter, other, event)
        } else {
            other.flush().or_device(|| "cannot flush a queue".into())?;
            event.wait_for().or_device(|| "cannot wait for a launch".into())
        }
    }

    /// `waiter` waits for everything enqueued on `other` so far: on NVIDIA by
    /// a marker and a barrier between the queues ([`queue_waits_for`], the
    /// form v23 measured and `srgfn check --halves on` runs), elsewhere by
    /// the host finishing `other`.  PoCL 3.1 let the barrier pass early: k =
    /// 128's plans in halves gave half their outputs stale in 2 of 45 runs of
    /// `k64_and_k128_full_transforms_at_k_squared` (docs/reliability.md).
    fn queue_waits_for(&self, waiter: &Queue, other: &Queue) -> Result<()> {
        if self.session.device.is_nvidia() {
            queue_waits_for(waiter, other)
        } else {
            other.finish().or_device(|| "cannot finish a queue".into())
        }
    }
}
