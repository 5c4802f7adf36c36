module.exports = {
  displayName: 'service-organizations',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/service-organizations',
};
