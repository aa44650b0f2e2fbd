"""Every file the companion writes goes through write.py, every file it reads through read.py,
every path is walked by walk.py and every name made beside a kept file comes from names.py (what
a text may cost before it is parsed: budget.py): so a link, a pipe, a device, a planted name,
a swapped folder or a huge shape is refused in one place, in words, and the game database is
never written over by anything but the store itself."""

from companion.files.read import FileTooBig, NotAFile, open_regular, read_regular
from companion.files.write import FileRefused, open_folder, write_in, write_whole

__all__ = ["FileRefused", "FileTooBig", "NotAFile", "open_folder", "open_regular",
           "read_regular", "write_in", "write_whole"]
