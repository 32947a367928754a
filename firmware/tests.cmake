# The Cortex-M firmware (firmware/): cross-built with arm-none-eabi-g++ and run on qemu's mps2-an386
# by firmware/run_qemu.sh, which checks the outputs against the golden TFLM digests. Label: firmware.
# firmware_objects compiles the shared objects once (a fixture); each model test then builds only its
# model blob, config and generated op resolver and links. Included from tests/CMakeLists.txt. Needs
# the arenaplan binary (to size the arena and read the model's ops).
find_program(ARENAPLAN_ARM_GXX arm-none-eabi-g++)
find_program(ARENAPLAN_QEMU_ARM qemu-system-arm)
if(ARENAPLAN_ARM_GXX AND ARENAPLAN_QEMU_ARM)
  set(_fw_out ${PROJECT_BINARY_DIR}/firmware)
  add_test(NAME firmware_objects
           COMMAND bash ${PROJECT_SOURCE_DIR}/firmware/build.sh ${_fw_out} ${PROJECT_BINARY_DIR}/generated)
  # The longest test (a cross build): the highest COST starts it first, and the qemu runs after it.
  set_tests_properties(firmware_objects PROPERTIES LABELS firmware TIMEOUT 1800 FIXTURES_SETUP firmware_objects
                       COST 1000)
  # The models issue 16 names, the int8 op-suite models, one model on a firmware with every kernel,
  # and one rewritten by `optimize --for arenaplan` (streams on the fast kernels).
  set(_fw_runs kws:mlperf_kws_dscnn_int8.tflite vww:mlperf_vww_mobilenet_int8.tflite
      resnet8:mlperf_ic_resnet8_int8.tflite autoencoder:mlperf_ad_autoencoder_int8.tflite
      person_detect:tflm_person_detect_int8.tflite op_suite_int8:op-suite-int8
      all_kernels:all-kernels:mlperf_kws_dscnn_int8.tflite
      person_detect_optimized:optimized:tflm_person_detect_int8.tflite)
  foreach(_run ${_fw_runs})
    string(REPLACE ":" ";" _parts ${_run})
    list(GET _parts 0 _name)
    list(REMOVE_AT _parts 0)
    string(REPLACE ";" ":" _spec "${_parts}")
    add_test(NAME firmware_qemu_${_name}
             COMMAND bash ${PROJECT_SOURCE_DIR}/firmware/run_qemu.sh $<TARGET_FILE:arenaplan>
                     ${PROJECT_BINARY_DIR}/generated ${_fw_out} ${_spec})
    set_tests_properties(firmware_qemu_${_name} PROPERTIES LABELS firmware TIMEOUT 900 SKIP_RETURN_CODE 77 COST 100
                         FIXTURES_REQUIRED firmware_objects ENVIRONMENT "ARENAPLAN_SHARED=${ARENAPLAN_SHARED_DIR}")
  endforeach()
else()
  message(STATUS "firmware test disabled: arm-none-eabi-g++ or qemu-system-arm not found")
endif()
