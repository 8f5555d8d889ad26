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
