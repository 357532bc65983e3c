//! Priority queues for the searches: each is made for one shape of keys
//! (small integer f values, a window's depths) and reuses its memory.

mod bucket_queue;
mod radix_heap;
mod window_queue;

pub use bucket_queue::BucketQueue;
pub(crate) use radix_heap::RadixHeap;
pub use window_queue::{WindowQueue, MAX_WINDOW_DEPTH};
