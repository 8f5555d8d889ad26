import { statfsSync } from "node:fs";

/**
 * statfs magic numbers of filesystems this kernel serves from local storage or memory: reads on
 * them do not wait on a network, and inotify hears every change made to them, whoever makes it.
 */
const LOCAL_FILESYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0x858458f6, // ramfs
  0xca451a4e, // bcachefs
]);

/** Whether `at` is on a local filesystem; asked each time (one system call), false when it cannot be told. */
export function onLocalFilesystem(at: string): boolean {
  try {
    return LOCAL_FILESYSTEMS.has(Number(statfsSync(at).type));
  } catch {
    return false;
  }
}

/** Answers for filesystems on a block device, by device number (see onLocalFilesystemOf). */
const blockDevices = new Map<number, boolean>();

/**
 * onLocalFilesystem for an entry whose stat gave `dev`, asked once per block device: a device
 * number with a major part is a block device (a disk, never a network mount, which like tmpfs,
 * FUSE and overlayfs gets an anonymous number with major 0 that a later mount may reuse, so
 * those are asked each time). A disk unmounted and mounted again as another filesystem in the
 * process's lifetime keeps its first answer.
 */
export function onLocalFilesystemOf(at: string, dev: number): boolean {
  // Linux's encoding: the major number is bits 8-19 (and 32 up, unused by block majors here)
  const block = Math.floor(dev / 256) % 4096 !== 0;
  if (!block) return onLocalFilesystem(at);
  let local = blockDevices.get(dev);
  if (local === undefined) {
    local = onLocalFilesystem(at);
    if (blockDevices.size > 1000) blockDevices.clear();
    blockDevices.set(dev, local);
  }
  return local;
}
