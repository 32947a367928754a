# The Cortex-M firmware (firmware/): cross-built with arm-none-eabi-g++ and run on qemu's mps2-an386
# by firmware/run_qemu.sh, which checks the outputs against the golden TFLM digests, the model-only and
# every-kernel images (kernels linked, flash) and the instruction-count calibration. Label: firmware.
# Included from tests/CMakeLists.txt. Needs the arenaplan binary (to size the arena) to be built.
find_program(ARENAPLAN_ARM_GXX arm-none-eabi-g++)
find_program(ARENAPLAN_QEMU_ARM qemu-system-arm)
if(ARENAPLAN_ARM_GXX AND ARENAPLAN_QEMU_ARM)
  add_test(NAME firmware_qemu_kws
           COMMAND bash ${PROJECT_SOURCE_DIR}/firmware/run_qemu.sh $<TARGET_FILE:arenaplan>
                   ${PROJECT_BINARY_DIR}/generated ${PROJECT_BINARY_DIR}/firmware mlperf_kws_dscnn_int8.tflite)
  set_tests_properties(firmware_qemu_kws PROPERTIES LABELS firmware TIMEOUT 900 SKIP_RETURN_CODE 77
                       ENVIRONMENT "ARENAPLAN_SHARED=${ARENAPLAN_SHARED_DIR}")
else()
  message(STATUS "firmware test disabled: arm-none-eabi-g++ or qemu-system-arm not found")
endif()
