# SPDX-License-Identifier: GPL-3.0-or-later
# Writes napkin-cli's manual page from the program itself (`napkin-cli --man-page`, cli/man_page.h), so the
# page lists exactly the options the program parses. Run by the build: cmake -DCLI=... -DOUT=... -P this.
execute_process(COMMAND "${CLI}" --man-page OUTPUT_FILE "${OUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE "${OUT}")
  message(FATAL_ERROR "napkin-cli --man-page failed: ${status}")
endif()
