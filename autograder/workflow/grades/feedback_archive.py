"""One LMS feedback archive: pages under the names that LMS's upload matches, written the same way for all.

Entries carry a fixed date, so the same pages make the same zip (a return can be compared with the
last one), and the zip is written beside its place and moved there whole, so an interrupted run never
leaves half an archive where an instructor would upload it.
"""
import os
import zipfile


def write_archive(path: str, entries: list[tuple[str, str]]) -> None:
    """Write ``path`` holding each (name in the zip, page on disk) of ``entries``, in their order."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with zipfile.ZipFile(path + ".partial", "w", zipfile.ZIP_DEFLATED) as archive:
        for name, page in entries:
            with open(page, "rb") as handle:
                archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), handle.read(), zipfile.ZIP_DEFLATED)
    os.replace(path + ".partial", path)
